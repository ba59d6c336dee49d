// The Engine's gRPC execution service (spec/engine.proto): the transport of the typed packages.
// Each call goes through the same steps, in the same order, as `POST /v1/apps/{version_id}/executions`:
// the SDK token (authorization metadata) is verified, the request is checked by the validators of
// that route (./request.ts), and the one call entry (src/calls) runs it with surface 'grpc'. The
// call's deadline and cancellation abort the provider request through the call's signal.
import { Server, ServerCredentials, logVerbosity, setLogger, setLogVerbosity, status as GrpcStatus, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import { lookup } from 'node:dns/promises';
import { createServer as createNetServer, isIP, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { createExecution as validateBody } from '../../generated/engine-api/body-validators.js';
import { createExecution as validateParams } from '../../generated/engine-api/param-validators.js';
import { EngineService, ExecuteRequest, type Envelope as WireEnvelope } from '../../generated/grpc/engine.ts';
import type { CallBody, Calls } from '../calls/index.ts';
import { EngineError, toEnvelope, type Envelope } from '../envelope/index.ts';
import type { Continuation } from '../execution/index.ts';
import { bearerFrom, type Tokens } from '../identity/index.ts';
import { throttledWarning, type Logger } from '../log/index.ts';
import { metrics } from '../metrics/index.ts';
import { callerContext, inSpan, SpanKind, tracingOn } from '../telemetry/index.ts';
import { Undecodable, decodeRequest, toWire } from './wire.ts';
import { KEY_METADATA, callSignal, deadlineOf, grpcValidationError, metadataKey, readFarDeadlinesAsNone, replayedMetadata, restBody } from './request.ts';

export interface GrpcDeps {
  tokens: Tokens;
  /** The one entry of every call (src/calls). Over gRPC, a Unified call's input_json carries { input, targets, selectors?, pagination?, idempotencyKey? }. */
  calls: Calls;
  log: Logger;
  config: { maxRequestBytes: number; restMaxResultBytes: number; grpcMaxConnections: number; grpcIdleMs: number; httpHeadersTimeoutMs: number };
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

/** How long a connection the Engine has ended may wait for the client to close its side. */
const HALF_OPEN_GRACE_MS = 2_000;

/**
 * A grpc-js log message without the request values it may quote: a metadata entry it refused
 * (`authorization: Bearer svc_sdk_…` with a stray non-ASCII character) is named, never shown.
 */
export function grpcLogText(args: unknown[]): string {
  return args
    .map(String)
    .join(' ')
    .replace(/(Failed to add metadata entry [^:\s]+):[\s\S]*/, '$1 (value withheld)')
    .replace(/"[^"]*"/g, '"…"');
}

/**
 * TCP listeners on every address `host` stands for, as grpc-js's bindAsync listened (`localhost` may
 * be both 127.0.0.1 and ::1): on `port`, or for 0 on the port the first listener got. An address that
 * cannot be listened on is skipped while another can; if none can, the first error is thrown.
 */
async function listenAll(host: string, port: number, onConnection: (socket: Socket) => void, log: Logger): Promise<{ listeners: NetServer[]; port: number }> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(bare) ? [bare] : (await lookup(bare, { all: true })).map((a) => a.address);
  const listeners: NetServer[] = [];
  let bound = port;
  let firstError: unknown;
  for (const address of addresses) {
    const listener = createNetServer(onConnection);
    try {
      await new Promise<void>((resolve, reject) => {
        listener.once('error', reject);
        listener.listen(bound, address, () => {
          listener.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      firstError ??= err;
      log.debug({ err, address }, 'gRPC cannot listen on this address of SVC_HOST');
      continue;
    }
    // An accept that fails (out of file descriptors) is that connection's loss, not the Engine's.
    listener.on('error', (err) => log.warn({ err }, 'gRPC listener error'));
    bound = (listener.address() as AddressInfo).port;
    listeners.push(listener);
  }
  if (!listeners.length) throw firstError;
  return { listeners, port: bound };
}

export async function startGrpcServer(deps: GrpcDeps, options: GrpcListenOptions): Promise<GrpcServerHandle> {
  const { tokens, calls, log, config } = deps;
  // grpc-js writes its own errors to stderr (a port in use, before the Engine's one-line answer): through pino instead.
  setLogger({ error: (...args: unknown[]) => log.debug({ grpc: grpcLogText(args) }, 'grpc-js') });
  setLogVerbosity(logVerbosity.ERROR);

  /** The REST route's steps, in its order: token, parameters, body, version, execution. */
  type Answer = { envelope: Envelope; dataJson?: string | undefined; exactDetails?: Record<string, unknown> | undefined; continuation?: Continuation | undefined; replayed?: boolean | undefined };
  async function run(call: ServerUnaryCall<ExecuteRequest, WireEnvelope>, signal: AbortSignal): Promise<Answer> {
    const req = call.request;
    const header = call.metadata.get('authorization')[0];
    const bearer = bearerFrom(typeof header === 'string' ? header : undefined);
    const principal = tokens.verifySync(bearer, 'sdk') ?? (await tokens.verify(bearer, 'sdk'));
    const key = metadataKey(call);
    const params = { version_id: req.versionId, ...(key !== undefined ? { 'Idempotency-Key': key } : {}) };
    if (!validateParams(params)) throw grpcValidationError(validateParams, params);
    const body = restBody(req, config.maxRequestBytes);
    if (!validateBody(body)) throw grpcValidationError(validateBody, body);
    const context = { signal, deadline: deadlineOf(call), ...(key !== undefined ? { idempotencyKey: { value: key, field: KEY_METADATA } } : {}) };
    // The provider's JSON text goes on the wire as it came, not re-serialised from the parsed value.
    const answer = await calls.call(principal, req.versionId, 'grpc', body as unknown as CallBody, context, 'input');
    if (answer.unified) return { envelope: answer.result.envelope, replayed: answer.result.replayed };
    const { result } = answer;
    return { envelope: result.envelope, dataJson: result.envelope.ok ? result.dataJson : undefined, exactDetails: result.exactDetails, continuation: result.continuation, replayed: result.replayed };
  }

  /** `run` in a SERVER span, a child of the caller's when its metadata carries a traceparent (src/telemetry). */
  const tracedRun = (call: ServerUnaryCall<ExecuteRequest, WireEnvelope>, signal: AbortSignal): Promise<Answer> => {
    const parent = callerContext(call.metadata.get('traceparent')[0], call.metadata.get('tracestate')[0]);
    const attributes = { 'rpc.system': 'grpc', 'rpc.service': 'svc.engine.v1.Engine', 'rpc.method': 'Execute' };
    return inSpan('svc.engine.v1.Engine/Execute', attributes, () => run(call, signal), {
      kind: SpanKind.SERVER,
      parent,
      outcome: (answer) => ({ 'svc.status': answer.envelope.status, 'rpc.grpc.status_code': call.cancelled ? 1 : signal.aborted ? 4 : 0 }),
    });
  };

  const execute = (call: ServerUnaryCall<ExecuteRequest, WireEnvelope>, callback: sendUnaryData<WireEnvelope>) => {
    const started = performance.now();
    if ((call.request as unknown) instanceof Undecodable) {
      metrics.observeRequest('grpc', 400, (performance.now() - started) / 1000);
      return callback({ code: GrpcStatus.INVALID_ARGUMENT, details: (call.request as unknown as Undecodable).message });
    }
    const { signal, release } = callSignal(call);
    (tracingOn() ? tracedRun(call, signal) : run(call, signal))
      .catch((err: unknown) => {
        if (!(err instanceof EngineError)) log.error({ err, operation: call.request.operation }, 'gRPC execution failed');
        return { envelope: toEnvelope(err), dataJson: undefined };
      })
      .then(({ envelope, dataJson, exactDetails, continuation, replayed }: Answer) => {
        release();
        // Past the deadline the answer is DEADLINE_EXCEEDED, as grpc-js's own deadline timer would send it, never an
        // envelope about the work the deadline stopped (a provider request cancelled, Unified steps skipped: a 500).
        const late = !call.cancelled && signal.aborted;
        metrics.observeRequest('grpc', call.cancelled ? 'cancelled' : late ? 'deadline' : envelope.status, (performance.now() - started) / 1000);
        if (call.cancelled) return;
        if (late) return callback({ code: GrpcStatus.DEADLINE_EXCEEDED, details: 'Deadline exceeded' });
        // A kept answer given again says so, as REST's Idempotent-Replayed header does.
        if (replayed) call.sendMetadata(replayedMetadata());
        callback(null, toWire(envelope, dataJson, exactDetails, continuation));
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
    // A place under SVC_GRPC_MAX_CONNECTIONS is not held for ever by a channel with no calls: it gets
    // a GOAWAY (grpc-js counts a connection that never opened a stream as idle from the start).
    'grpc.max_connection_idle_ms': config.grpcIdleMs,
  });
  readFarDeadlinesAsNone(server);
  server.addService({ ...EngineService, execute: { ...EngineService.execute, requestDeserialize: decodeRequest } }, { execute });

  // The Engine accepts the TCP connections itself and hands them to grpc-js (its public connection
  // injector), so that one past SVC_GRPC_MAX_CONNECTIONS is closed before any HTTP/2 byte: grpc-js
  // has no cap of its own. tryShutdown and forceShutdown end the injected sessions as bound ones.
  const injector = server.createConnectionInjector(ServerCredentials.createInsecure());
  const { grpcMaxConnections } = config;
  const open = new Set<Socket>();
  const warnDropped = throttledWarning(log, () => ({ maxConnections: grpcMaxConnections }), 'gRPC connection limit reached: new connections are closed unanswered (SVC_GRPC_MAX_CONNECTIONS)');
  const accept = (socket: Socket) => {
    if (open.size < grpcMaxConnections) {
      open.add(socket);
      // A client that has not sent a byte within SVC_HTTP_HEADERS_TIMEOUT_MS loses its place, as an
      // HTTP one does; one that never closes its side after the Engine ended the connection (idle,
      // shutdown) is cut HALF_OPEN_GRACE_MS later.
      const silent = setTimeout(() => socket.bytesRead === 0 && socket.destroy(), config.httpHeadersTimeoutMs).unref();
      let halfOpen: NodeJS.Timeout | undefined;
      socket.once('finish', () => (halfOpen = setTimeout(() => socket.destroy(), HALF_OPEN_GRACE_MS).unref()));
      socket.once('close', () => {
        open.delete(socket);
        clearTimeout(silent);
        clearTimeout(halfOpen);
      });
      return injector.injectConnection(socket);
    }
    socket.destroy();
    warnDropped();
  };
  const { listeners, port } = await listenAll(options.host, options.port, accept, log).catch((err: unknown) => {
    server.forceShutdown();
    throw err;
  });

  const grace = options.shutdownGraceMs ?? 5_000;
  let stopping: Promise<void> | undefined;
  return {
    port,
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        // No new connection from here on; each listener closes once the connections it accepted have.
        const closed = Promise.all(listeners.map((listener) => new Promise((r) => listener.close(r))));
        const force = setTimeout(() => {
          log.warn({ graceMs: grace }, 'gRPC calls still running after the shutdown grace period; cancelling them');
          server.forceShutdown();
          for (const socket of open) socket.destroy();
          void closed.then(() => resolve());
        }, grace);
        server.tryShutdown(() => {
          void closed.then(() => {
            clearTimeout(force);
            resolve();
          });
        });
      });
      return stopping;
    },
  };
}
