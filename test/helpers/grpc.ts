// A bare gRPC client of the Engine (the ts-proto stubs from generated/grpc), for tests that talk
// to the gRPC service without a typed package.
import { credentials, Metadata, type ServiceError } from '@grpc/grpc-js';
import { EngineClient, ExecuteRequest, type Envelope as WireEnvelope } from '../../generated/grpc/engine.ts';

export interface PlainEnvelope {
  ok: boolean;
  status: number;
  data: unknown;
  error: { code: string; message: string; retryable: boolean; details?: unknown; recovery?: unknown } | null;
  continuation?: unknown;
}

/** The wire envelope as the REST JSON envelope. */
export function fromWire(w: WireEnvelope): PlainEnvelope {
  const e = w.error;
  return {
    ok: w.ok,
    status: w.status,
    data: JSON.parse(w.dataJson || 'null'),
    error: e
      ? {
          code: e.code,
          message: e.message,
          retryable: e.retryable,
          ...(e.detailsJson !== undefined ? { details: JSON.parse(e.detailsJson) } : {}),
          ...(e.recoveryJson !== undefined ? { recovery: JSON.parse(e.recoveryJson) } : {}),
        }
      : null,
    ...(w.continuationJson !== undefined ? { continuation: JSON.parse(w.continuationJson) } : {}),
  };
}

export interface RawCall {
  envelope?: PlainEnvelope;
  /** The reply as it came over the wire (data still JSON text). */
  wire?: WireEnvelope;
  error?: ServiceError;
  ms: number;
}

export class RawEngineClient {
  private readonly client: EngineClient;

  constructor(grpcUrl: string) {
    this.client = new EngineClient(grpcUrl, credentials.createInsecure(), { 'grpc.enable_channelz': 0 });
  }

  execute(token: string | undefined, req: Partial<ExecuteRequest>, options: { deadlineMs?: number } = {}): Promise<RawCall> {
    const metadata = new Metadata();
    if (token !== undefined) metadata.set('authorization', `Bearer ${token}`);
    const started = performance.now();
    const callOptions = options.deadlineMs !== undefined ? { deadline: Date.now() + options.deadlineMs } : {};
    return new Promise((resolve) => {
      this.client.execute(ExecuteRequest.fromPartial(req), metadata, callOptions, (error, response) => {
        const ms = performance.now() - started;
        resolve(error ? { error, ms } : { envelope: fromWire(response), wire: response, ms });
      });
    });
  }

  close(): void {
    this.client.close();
  }
}
