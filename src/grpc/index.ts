// The Engine's gRPC execution service (spec/engine.proto): the transport of the typed packages.
// Each call goes through the same steps, in the same order, as `POST /v1/apps/{version_id}/executions`:
// the SDK token (authorization metadata) is verified, the version ID and the request are checked by
// the validators generated from spec/engine.openapi.yaml for that route, the token must belong to
// the version's app, and the one Executor runs it (authorisation, validation, credentials,
// pagination, receipt with surface 'grpc'). The call's deadline and cancellation abort the
// provider request through the CallScope signal.
import { Metadata, Server, ServerCredentials, logVerbosity, setLogger, setLogVerbosity, status as GrpcStatus, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import { lookup } from 'node:dns/promises';
import type { Http2Server, IncomingHttpHeaders } from 'node:http2';
import { createServer as createNetServer, isIP, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { BinaryReader } from '@bufbuild/protobuf/wire';
import type { ValidateFunction } from 'ajv';
import { createExecution as validateBody } from '../../generated/engine-api/body-validators.js';
import { createExecution as validateParams } from '../../generated/engine-api/param-validators.js';
import { EngineService, ExecuteRequest, type Envelope as WireEnvelope } from '../../generated/grpc/engine.ts';
import type { CallBody, Calls } from '../calls/index.ts';
import { EngineError, toEnvelope, type Envelope } from '../envelope/index.ts';
import { patternMeaning, type Continuation } from '../execution/index.ts';
import { bearerFrom, type Tokens } from '../identity/index.ts';
import { parseJsonInput } from '../json-input/index.ts';
import { throttledWarning, type Logger } from '../log/index.ts';
import { metrics } from '../metrics/index.ts';
import { callerContext, inSpan, SpanKind, tracingOn } from '../telemetry/index.ts';

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

/** The REST request body this gRPC request stands for, so that the route's own validator checks it. */
function restBody(req: ExecuteRequest, maxInputBytes: number): Record<string, unknown> {
  const body: Record<string, unknown> = { operation: req.operation };
  if (req.inputJson !== '') {
    if (Buffer.byteLength(req.inputJson) > maxInputBytes) {
      throw new EngineError('ENGINE_INPUT_TOO_LARGE', `input_json exceeds the ${maxInputBytes}-byte limit`, { details: { limitBytes: maxInputBytes } });
    }
    body.input = parseJsonInput(req.inputJson, 'input_json');
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

/** The ExecuteRequest fields by the REST body's (or parameters') property names they stand for. */
const GRPC_FIELDS: Record<string, string> = {
  version_id: 'version_id',
  operation: 'operation',
  input: 'input_json',
  pagination: 'pagination',
  maxPages: 'max_pages',
  selectors: 'selectors',
  endUserRef: 'end_user_ref',
  authType: 'auth_type',
  authName: 'auth_name',
  resourceId: 'resource_id',
  'Idempotency-Key': 'idempotency-key',
};

/** What a JSON value is, as a caller would say it. */
const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `${/^[aeiou]/.test(typeof value) ? 'an' : 'a'} ${typeof value}`);

/**
 * ENGINE_INVALID_INPUT for a failed REST-route validator, naming the ExecuteRequest fields the caller
 * sent (`input_json must be a JSON object, not an array`) rather than the REST request's
 * (`body/input must be object`). The REST route's own error (execution/validation.ts) keeps its names.
 */
function grpcValidationError(validate: ValidateFunction, checked: Record<string, unknown>): EngineError {
  const errors = (validate.errors ?? []).slice(0, 10).map((e) => {
    const steps = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (e.keyword === 'required' || e.keyword === 'additionalProperties') steps.push(String(e.params.missingProperty ?? e.params.additionalProperty));
    const [head, ...rest] = steps;
    // input_json holds the input; a path inside it stays a JSON pointer.
    const names = steps.map((s, i) => (i === 0 || head !== 'input' ? (GRPC_FIELDS[s] ?? s) : s));
    const field = head === 'input' ? `input_json${rest.length ? ` (at /${rest.join('/')})` : ''}` : names.join('.');
    const instancePath = names.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
    const value = steps.reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), checked);
    let message = patternMeaning(e) ?? e.message ?? 'is invalid';
    if (e.keyword === 'type' && head === 'input' && !rest.length) message = `must be a JSON object, not ${kindOf(value)}`;
    else if (e.keyword === 'type') message = `must be ${String(e.params.type)}, not ${kindOf(value)}`;
    else if (e.keyword === 'minLength' && value === '') message = 'must not be empty';
    else if (e.keyword === 'required') message = 'is required';
    else if (e.keyword === 'additionalProperties') message = 'is not a field of this request';
    return { field, instancePath, message };
  });
  const first = errors[0] ?? { field: 'the request', message: 'is invalid' };
  return new EngineError('ENGINE_INVALID_INPUT', `${first.field} ${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`, {
    details: { field: first.field, errors },
  });
}

/**
 * A request message that could not be decoded. grpc-js answers a deserializer that throws with
 * INTERNAL "Error deserializing request"; the service's deserializer returns this instead, and
 * the call is answered INVALID_ARGUMENT naming the field.
 */
class Undecodable {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

const WIRE_TYPES = ['varint', '64-bit', 'length-delimited', 'start-group', 'end-group', '32-bit'];
interface WireField {
  name: string;
  /** The wire type the field is encoded with (2: length-delimited, 0: varint). */
  wire: number;
  /** A string field: its bytes must be UTF-8 (proto3). */
  text?: boolean;
  nested?: Record<number, WireField>;
}
const text = (name: string): WireField => ({ name, wire: 2, text: true });
/**
 * spec/engine.proto's ExecuteRequest, by field number: keep in step with it. A field missing here is
 * still decoded by the generated code, only without the wire-type and UTF-8 checks below.
 */
const EXECUTE_REQUEST: Record<number, WireField> = {
  1: text('version_id'),
  2: text('operation'),
  3: text('input_json'),
  4: { name: 'pagination', wire: 2, nested: { 1: { name: 'max_pages', wire: 0 } } },
  5: { name: 'selectors', wire: 2, nested: { 1: text('end_user_ref'), 2: text('auth_type'), 3: text('auth_name'), 4: text('resource_id') } },
};

/** Why a field cannot be taken; LocatedProblem: the same, naming the field and where it starts. */
class WireProblem extends Error {}
class LocatedProblem extends Error {}

/**
 * Walks the message's wire format, throwing a LocatedProblem that names the field for what the
 * generated decoder would refuse (truncated data, an illegal tag) or would take silently: a known
 * field sent with another wire type (it would be skipped, the field left empty), a string that is
 * not UTF-8 (it would be decoded with U+FFFD). Fields this Engine does not know are skipped, as
 * protobuf's compatibility rules have it.
 */
function checkWire(reader: BinaryReader, end: number, fields: Record<number, WireField>, prefix: string): void {
  while (reader.pos < end) {
    const at = reader.pos;
    let name = `${prefix}a tag`;
    try {
      const [no, wire] = reader.tag();
      const field = fields[no];
      name = field ? `${prefix}${field.name} (field ${no})` : `${prefix}field ${no}`;
      if (field && wire !== field.wire) throw new WireProblem(`is encoded as ${WIRE_TYPES[wire] ?? `wire type ${wire}`}, not ${WIRE_TYPES[field.wire]}`);
      if (field?.nested) {
        const length = reader.uint32();
        const stop = reader.pos + length;
        if (stop > end) throw new WireProblem(`is ${length} bytes long, past the end of the message`);
        checkWire(reader, stop, field.nested, `${prefix}${field.name}.`);
      } else if (field?.text) {
        try {
          reader.string(true);
        } catch (err) {
          throw err instanceof RangeError ? err : new WireProblem('is not valid UTF-8 (a proto3 string must be)');
        }
      } else if (field?.wire === 0) {
        // Read as the generated decoder reads it (int32), so that a varint it refuses (longer than 10 bytes) is named here.
        reader.int32();
      } else reader.skip(wire, no);
      if (reader.pos > end) throw new WireProblem('runs past the end of the message');
    } catch (err) {
      if (err instanceof LocatedProblem) throw err;
      const reason =
        err instanceof WireProblem ? err.message : err instanceof RangeError ? 'is cut short (the message ends inside it)' : `cannot be read (${(err as Error).message})`;
      throw new LocatedProblem(`${name} ${reason}, at byte ${at}`);
    }
  }
}

/** The service's request deserializer: the decoded request, or Undecodable saying why it is not one. */
function decodeRequest(bytes: Buffer): ExecuteRequest {
  try {
    checkWire(new BinaryReader(bytes), bytes.length, EXECUTE_REQUEST, '');
    return ExecuteRequest.decode(bytes);
  } catch (err) {
    const reason = (err as Error).message;
    return new Undecodable(`the request is not a valid svc.engine.v1.ExecuteRequest message: ${reason}`) as unknown as ExecuteRequest;
  }
}

/** The envelope as the wire message; `dataJson`, when given, is `envelope.data` as JSON text already (the provider's own body). */
export function toWire(envelope: Envelope, dataJson?: string, exactDetails?: Record<string, unknown>, continuation?: Continuation): WireEnvelope {
  const error = envelope.error;
  return {
    ok: envelope.ok,
    status: envelope.status,
    dataJson: dataJson ?? JSON.stringify(envelope.data ?? null),
    continuationJson: continuation === undefined ? undefined : JSON.stringify(continuation),
    error: error
      ? {
          code: error.code,
          message: error.message,
          retryable: error.retryable,
          detailsJson: error.details === undefined ? undefined : JSON.stringify(exactDetails ?? error.details),
          recoveryJson: error.recovery === undefined ? undefined : JSON.stringify(error.recovery),
        }
      : undefined,
  };
}

/** Where a gRPC caller gives its idempotency key: metadata, as REST's `Idempotency-Key` header. */
const KEY_METADATA = 'idempotency-key';

/** The call's idempotency key from its metadata, when it sent one; two different values are refused. */
function metadataKey(call: ServerUnaryCall<ExecuteRequest, WireEnvelope>): string | undefined {
  const values = call.metadata.get(KEY_METADATA);
  if (values.length === 0) return undefined;
  const texts = values.map((v) => (typeof v === 'string' ? v : v.toString('latin1')));
  if (texts.some((t) => t !== texts[0])) {
    throw new EngineError('ENGINE_INVALID_INPUT', `${KEY_METADATA} is given ${texts.length} times with different values; give one key`, { details: { field: KEY_METADATA } });
  }
  return texts[0];
}

const replayedMetadata = () => {
  const metadata = new Metadata();
  metadata.set('idempotent-replayed', 'true');
  return metadata;
};

/** The call's deadline as epoch ms, when it has one. */
function deadlineOf(call: ServerUnaryCall<ExecuteRequest, WireEnvelope>): number | undefined {
  const deadline = call.getDeadline();
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(at) ? at : undefined;
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

/** grpc-js's reading of a grpc-timeout header (server-interceptors.js): its first digits-and-unit run. */
const GRPC_TIMEOUT = /(\d{1,8})\s*([HMSmun])/;
const TIMEOUT_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 1e-3, n: 1e-6 };
/** The longest timeout grpc-js (a Node timer, 32-bit milliseconds) can hold: 24.8 days. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * grpc-js computes a call's timeout as `(value * unit) | 0`: a grpc-timeout past 2^31 ms wraps round,
 * to a negative timeout (the call ends at once: DEADLINE_EXCEEDED, or an envelope saying its provider
 * request was cancelled) or to a shorter one than the caller asked for. A deadline that far is none:
 * the header is dropped before grpc-js reads it, as the typed packages send none past 2e9 ms.
 */
function dropFarDeadline(_stream: unknown, headers: IncomingHttpHeaders): void {
  const timeout = headers['grpc-timeout'];
  const match = typeof timeout === 'string' ? GRPC_TIMEOUT.exec(timeout) : null;
  if (match && Number(match[1]) * TIMEOUT_UNIT_MS[match[2]!]! > MAX_TIMEOUT_MS) delete headers['grpc-timeout'];
}

/**
 * Runs dropFarDeadline ahead of grpc-js on every HTTP/2 server it binds. grpc-js has no public hook
 * before it reads the headers: this wraps its _setupHandlers (grpc-js 1.14), and does nothing if it
 * is gone (test/grpc/execute-fuzz.test.ts then fails on a 30-day deadline).
 */
function readFarDeadlinesAsNone(server: Server): void {
  const internals = server as unknown as { _setupHandlers?: (http2Server: Http2Server | null, ...rest: unknown[]) => void };
  const setup = internals._setupHandlers;
  if (typeof setup !== 'function') return;
  internals._setupHandlers = function (this: Server, http2Server, ...rest) {
    http2Server?.prependListener('stream', dropFarDeadline);
    return setup.call(this, http2Server, ...rest);
  };
}

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
