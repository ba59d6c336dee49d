// Sends one provider request with undici, enforcing connect and total timeouts and a result
// size cap while the body streams in. Failures are classified by whether the provider could
// have acted: `not_started` only when no request can have left the Engine.
import { Agent, request, errors as undiciErrors } from 'undici';
import { EngineError } from '../envelope/index.ts';
import type { ProviderRequest } from './request.ts';

export interface ProviderResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, text, or null for an empty body. */
  data: unknown;
  /** Raw body bytes. */
  raw: Buffer;
  durationMs: number;
}

export interface DispatchLimits {
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

const NOT_STARTED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_INVALID_URL']);

function errorCode(err: unknown): string | undefined {
  let current: any = err;
  for (let i = 0; current && i < 5; i++) {
    if (typeof current.code === 'string' && current.code !== 'UND_ERR_ABORTED') return current.code;
    if (current instanceof AggregateError && current.errors?.[0]) current = current.errors[0];
    else current = current.cause;
  }
  return undefined;
}

export class Dispatcher {
  private readonly agent: Agent;

  constructor(options: { connectTimeoutMs: number }) {
    this.agent = new Agent({
      connect: { timeout: options.connectTimeoutMs },
      keepAliveTimeout: 10_000,
      connections: 256,
      pipelining: 1,
    });
  }

  async close() {
    await this.agent.close();
  }

  async send(req: ProviderRequest, limits: DispatchLimits, secret: string | null): Promise<ProviderResponse> {
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    const signal = limits.signal ? AbortSignal.any([limits.signal, timeout]) : timeout;
    const started = performance.now();
    const idempotent = req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS';
    let res;
    try {
      res = await request(req.url, {
        method: req.method as 'GET',
        headers: req.headers,
        body: req.body,
        signal,
        dispatcher: this.agent,
        headersTimeout: limits.timeoutMs,
        bodyTimeout: limits.timeoutMs,
      });
    } catch (err) {
      throw this.classify(err, timeout, limits.signal, idempotent);
    }
    const length = Number(res.headers['content-length']);
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      if (Number.isFinite(length) && length > limits.maxBytes) throw tooLarge(limits.maxBytes);
      for await (const chunk of res.body) {
        size += chunk.length;
        if (size > limits.maxBytes) throw tooLarge(limits.maxBytes);
        chunks.push(chunk);
      }
    } catch (err) {
      res.body.destroy();
      if (err instanceof EngineError) throw err;
      throw this.classify(err, timeout, limits.signal, idempotent, true);
    }
    const durationMs = performance.now() - started;
    let raw = Buffer.concat(chunks, size);
    if (secret && raw.includes(secret)) {
      // A provider that echoes the credential must not hand it to the caller.
      raw = Buffer.from(raw.toString('utf8').split(secret).join('[redacted]'));
    }
    return { status: res.statusCode, headers: res.headers, data: parseBody(raw, res.headers['content-type']), raw, durationMs };
  }

  private classify(err: unknown, timeout: AbortSignal, callerSignal: AbortSignal | undefined, idempotent: boolean, responding = false): EngineError {
    if (callerSignal?.aborted) {
      return new EngineError('ENGINE_OUTCOME_UNKNOWN', 'the call was cancelled while the provider request was in flight', {
        providerExecution: 'unknown',
      });
    }
    const code = errorCode(err);
    const timedOut =
      timeout.aborted ||
      err instanceof undiciErrors.HeadersTimeoutError ||
      err instanceof undiciErrors.BodyTimeoutError ||
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT';
    if (!responding && code && NOT_STARTED_CODES.has(code)) {
      return new EngineError('PROVIDER_UNREACHABLE', `the provider could not be reached (${code})`, {
        retryable: true,
        providerExecution: 'not_started',
      });
    }
    if (timedOut) {
      return new EngineError('PROVIDER_TIMEOUT', 'the provider did not answer in time; it may have acted on the request', {
        retryable: idempotent,
        providerExecution: 'unknown',
      });
    }
    return new EngineError('ENGINE_OUTCOME_UNKNOWN', `the connection to the provider failed mid-request (${code ?? 'closed'}); it may have acted on the request`, {
      retryable: idempotent,
      providerExecution: 'unknown',
    });
  }
}

const tooLarge = (maxBytes: number) =>
  new EngineError('ENGINE_RESULT_TOO_LARGE', `the provider result exceeds the ${maxBytes}-byte limit; narrow the request`, {
    details: { limitBytes: maxBytes },
    providerExecution: 'completed',
  });

function parseBody(raw: Buffer, contentType: string | string[] | undefined): unknown {
  if (raw.length === 0) return null;
  const text = raw.toString('utf8');
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  if (type && /json/i.test(type)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
