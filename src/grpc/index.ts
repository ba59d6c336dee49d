// The Engine's gRPC execution service (spec/engine.proto): the transport of the typed packages.
// Each call goes through the same steps, in the same order, as `POST /v1/apps/{version_id}/executions`:
// the SDK token (authorization metadata) is verified, the version ID and the request are checked by
// the validators generated from spec/engine.openapi.yaml for that route, the token must belong to
// the version's app, and the one Executor runs it (authorisation, validation, credentials,
// pagination, receipt with surface 'grpc'). The call's deadline and cancellation abort the
// provider request through the CallScope signal.
import { Server, ServerCredentials, status as GrpcStatus, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import { createExecution as validateBody } from '../../generated/engine-api/body-validators.js';
import { createExecution as validateParams } from '../../generated/engine-api/param-validators.js';
import { EngineService, type Envelope as WireEnvelope, type ExecuteRequest } from '../../generated/grpc/engine.ts';
import type { Apps } from '../apps/index.ts';
import { EngineError, toEnvelope, type Envelope } from '../envelope/index.ts';
import { requestValidationError, unknownVersion, versionScopes, type CallRequest, type Executor } from '../execution/index.ts';
import { bearerFrom, type Tokens } from '../identity/index.ts';
import type { Logger } from '../log/index.ts';
import { metrics } from '../metrics/index.ts';
import type { UnifiedOperations } from '../unified/index.ts';

export interface GrpcDeps {
  tokens: Tokens;
  sdk: Apps;
  executor: Executor;
  /** Unified operations: over gRPC, input_json carries { input, targets, selectors?, pagination?, idempotencyKey? }. */
  unified?: UnifiedOperations;
  log: Logger;
  config: { maxRequestBytes: number; restMaxResultBytes: number };
}

export interface GrpcListenOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** How long stop() waits for calls in flight before cancelling them (default 5 s). */
  shutdownGraceMs?: number;
}

export interface GrpcServerHandle {
  /** The bound port. */
  port: number;
  /** Stops accepting calls, lets calls in flight finish within the grace period, then cancels the rest. */
  stop(): Promise<void>;
}

/** Room for the request's other fields beside an input of the Engine's largest request body. */
const FRAME_OVERHEAD_BYTES = 64 * 1024;

/** The REST request body this gRPC request stands for, so that the route's own validator checks it. */
function restBody(req: ExecuteRequest, maxInputBytes: number): Record<string, unknown> {
  const body: Record<string, unknown> = { operation: req.operation };
  if (req.inputJson !== '') {
    if (Buffer.byteLength(req.inputJson) > maxInputBytes) {
      throw new EngineError('ENGINE_INPUT_TOO_LARGE', `input_json exceeds the ${maxInputBytes}-byte limit`, { details: { limitBytes: maxInputBytes } });
    }
    try {
      body.input = JSON.parse(req.inputJson);
    } catch (err) {
      throw new EngineError('ENGINE_INVALID_INPUT', `input_json: not valid JSON (${(err as Error).message})`, { details: { field: 'input_json' } });
    }
  }
  if (req.pagination) body.pagination = req.pagination.maxPages === undefined ? {} : { maxPages: req.pagination.maxPages };
  if (req.selectors) {
    const s = req.selectors;
    body.selectors = Object.fromEntries(
      Object.entries({ endUserRef: s.endUserRef, authType: s.authType, authName: s.authName, resourceId: s.resourceId }).filter(([, v]) => v !== undefined),
    );
  }
  return body;
}

/** The envelope as the wire message; `dataJson`, when given, is `envelope.data` as JSON text already (the provider's own body). */
export function toWire(envelope: Envelope, dataJson?: string): WireEnvelope {
  const error = envelope.error;
  return {
    ok: envelope.ok,
    status: envelope.status,
    dataJson: dataJson ?? JSON.stringify(envelope.data ?? null),
    error: error
      ? {
          code: error.code,
          message: error.message,
          retryable: error.retryable,
          detailsJson: error.details === undefined ? undefined : JSON.stringify(error.details),
          recoveryJson: error.recovery === undefined ? undefined : JSON.stringify(error.recovery),
        }
      : undefined,
  };
}

/** Aborts when the client cancels or the call's deadline passes. */
function callSignal(call: ServerUnaryCall<ExecuteRequest, WireEnvelope>): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const onCancel = () => controller.abort(new Error('the gRPC call was cancelled'));
  call.once('cancelled', onCancel);
  const deadline = call.getDeadline();
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  let timer: NodeJS.Timeout | undefined;
  if (Number.isFinite(at)) {
    const remaining = at - Date.now();
    if (remaining <= 0) controller.abort(new Error('the gRPC deadline passed'));
    else timer = setTimeout(() => controller.abort(new Error('the gRPC deadline passed')), remaining);
  }
  return {
    signal: controller.signal,
    release() {
      if (timer) clearTimeout(timer);
      call.removeListener('cancelled', onCancel);
    },
  };
}

export async function startGrpcServer(deps: GrpcDeps, options: GrpcListenOptions): Promise<GrpcServerHandle> {
  const { tokens, sdk, executor, log, config } = deps;
  const scopeFor = versionScopes('grpc', config.restMaxResultBytes);

  /** The REST route's steps, in its order: token, parameters, body, version, execution. */
  async function run(call: ServerUnaryCall<ExecuteRequest, WireEnvelope>, signal: AbortSignal): Promise<{ envelope: Envelope; dataJson?: string | undefined }> {
    const req = call.request;
    const header = call.metadata.get('authorization')[0];
    const bearer = bearerFrom(typeof header === 'string' ? header : undefined);
    const principal = tokens.verifySync(bearer, 'sdk') ?? (await tokens.verify(bearer, 'sdk'));
    if (!validateParams({ version_id: req.versionId })) throw requestValidationError('parameters', validateParams);
    const body = restBody(req, config.maxRequestBytes);
    if (!validateBody(body)) throw requestValidationError('body', validateBody);
    const version = sdk.cachedVersion(req.versionId) ?? (await sdk.version(req.versionId));
    if (!version) throw unknownVersion(req.versionId);
    if (version.name !== principal.subject) {
      throw new EngineError('ENGINE_UNAUTHENTICATED', `the token is not valid for version ${req.versionId}`);
    }
    const scope = { ...scopeFor(version), tokenId: principal.id, signal };
    if (deps.unified && req.operation.startsWith('unified.')) {
      // Unified calls key selectors and bounds by target inside input_json; the flat message fields would be lost.
      for (const field of ['selectors', 'pagination'] as const) {
        if (req[field] !== undefined) {
          throw new EngineError('ENGINE_INVALID_INPUT', `${field}: a Unified call takes ${field} keyed by target inside input_json ({ input, targets, ${field}: { <target>: … } })`, { details: { field } });
        }
      }
      return { envelope: (await deps.unified.call(scope, req.operation, (body as { input?: unknown }).input ?? {})).envelope };
    }
    // The provider's JSON text goes on the wire as it came, not re-serialised from the parsed value.
    const result = await executor.call(scope, body as unknown as CallRequest);
    return { envelope: result.envelope, dataJson: result.envelope.ok ? result.dataJson : undefined };
  }

  const execute = (call: ServerUnaryCall<ExecuteRequest, WireEnvelope>, callback: sendUnaryData<WireEnvelope>) => {
    const started = performance.now();
    const { signal, release } = callSignal(call);
    run(call, signal)
      .catch((err: unknown) => {
        if (!(err instanceof EngineError)) log.error({ err, operation: call.request.operation }, 'gRPC execution failed');
        return { envelope: toEnvelope(err), dataJson: undefined };
      })
      .then(({ envelope, dataJson }) => {
        release();
        metrics.observeRequest('grpc', call.cancelled ? 'cancelled' : envelope.status, (performance.now() - started) / 1000);
        if (call.cancelled) return;
        callback(null, toWire(envelope, dataJson));
      })
      .catch((err: unknown) => {
        log.error({ err }, 'gRPC reply failed');
        callback({ code: GrpcStatus.INTERNAL, details: 'the Engine could not encode the reply' });
      });
  };

  const server = new Server({
    // Room for messages well past the request limit, so an oversized input is answered with the 413
    // envelope (restBody) rather than a transport error; beyond 4× it the transport refuses it.
    'grpc.max_receive_message_length': config.maxRequestBytes * 4 + FRAME_OVERHEAD_BYTES,
    'grpc.max_send_message_length': -1,
  });
  server.addService(EngineService, { execute });
  const host = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${host}:${options.port}`, ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
  const grace = options.shutdownGraceMs ?? 5_000;
  let stopping: Promise<void> | undefined;
  return {
    port,
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          log.warn({ graceMs: grace }, 'gRPC calls still running after the shutdown grace period; cancelling them');
          server.forceShutdown();
          resolve();
        }, grace);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      return stopping;
    },
  };
}
