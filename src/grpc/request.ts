// A gRPC call as the REST route it stands for: its ExecuteRequest as the REST body, checked by the
// route's own generated validators (their problems named by the gRPC field), its metadata (idempotency
// key) and its deadline and cancellation as the call's signal.
import { Metadata, Server, type ServerUnaryCall } from '@grpc/grpc-js';
import type { Http2Server, IncomingHttpHeaders } from 'node:http2';
import type { ValidateFunction } from 'ajv';
import { ExecuteRequest, type Envelope as WireEnvelope } from '../../generated/grpc/engine.ts';
import { EngineError } from '../envelope/index.ts';
import { patternMeaning } from '../execution/index.ts';
import { parseJsonInput } from '../json-input/index.ts';

/** The REST request body this gRPC request stands for, so that the route's own validator checks it. */
export function restBody(req: ExecuteRequest, maxInputBytes: number): Record<string, unknown> {
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
export const GRPC_FIELDS: Record<string, string> = {
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
export const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `${/^[aeiou]/.test(typeof value) ? 'an' : 'a'} ${typeof value}`);

/**
 * ENGINE_INVALID_INPUT for a failed REST-route validator, naming the ExecuteRequest fields the caller
 * sent (`input_json must be a JSON object, not an array`) rather than the REST request's
 * (`body/input must be object`). The REST route's own error (execution/validation.ts) keeps its names.
 */
export function grpcValidationError(validate: ValidateFunction, checked: Record<string, unknown>): EngineError {
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

/** Where a gRPC caller gives its idempotency key: metadata, as REST's `Idempotency-Key` header. */
export const KEY_METADATA = 'idempotency-key';

/** The call's idempotency key from its metadata, when it sent one; two different values are refused. */
export function metadataKey(call: ServerUnaryCall<ExecuteRequest, WireEnvelope>): string | undefined {
  const values = call.metadata.get(KEY_METADATA);
  if (values.length === 0) return undefined;
  const texts = values.map((v) => (typeof v === 'string' ? v : v.toString('latin1')));
  if (texts.some((t) => t !== texts[0])) {
    throw new EngineError('ENGINE_INVALID_INPUT', `${KEY_METADATA} is given ${texts.length} times with different values; give one key`, { details: { field: KEY_METADATA } });
  }
  return texts[0];
}

export const replayedMetadata = () => {
  const metadata = new Metadata();
  metadata.set('idempotent-replayed', 'true');
  return metadata;
};

/** The call's deadline as epoch ms, when it has one. */
export function deadlineOf(call: ServerUnaryCall<ExecuteRequest, WireEnvelope>): number | undefined {
  const deadline = call.getDeadline();
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(at) ? at : undefined;
}

/** Aborts when the client cancels or the call's deadline passes. */
export function callSignal(call: ServerUnaryCall<ExecuteRequest, WireEnvelope>): { signal: AbortSignal; release(): void } {
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
export const GRPC_TIMEOUT = /(\d{1,8})\s*([HMSmun])/;
export const TIMEOUT_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 1e-3, n: 1e-6 };
/** The longest timeout grpc-js (a Node timer, 32-bit milliseconds) can hold: 24.8 days. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * grpc-js computes a call's timeout as `(value * unit) | 0`: a grpc-timeout past 2^31 ms wraps round,
 * to a negative timeout (the call ends at once: DEADLINE_EXCEEDED, or an envelope saying its provider
 * request was cancelled) or to a shorter one than the caller asked for. A deadline that far is none:
 * the header is dropped before grpc-js reads it, as the typed packages send none past 2e9 ms.
 */
export function dropFarDeadline(_stream: unknown, headers: IncomingHttpHeaders): void {
  const timeout = headers['grpc-timeout'];
  const match = typeof timeout === 'string' ? GRPC_TIMEOUT.exec(timeout) : null;
  if (match && Number(match[1]) * TIMEOUT_UNIT_MS[match[2]!]! > MAX_TIMEOUT_MS) delete headers['grpc-timeout'];
}

/**
 * Runs dropFarDeadline ahead of grpc-js on every HTTP/2 server it binds. grpc-js has no public hook
 * before it reads the headers: this wraps its _setupHandlers (grpc-js 1.14), and does nothing if it
 * is gone (test/grpc/execute-fuzz.test.ts then fails on a 30-day deadline).
 */
export function readFarDeadlinesAsNone(server: Server): void {
  const internals = server as unknown as { _setupHandlers?: (http2Server: Http2Server | null, ...rest: unknown[]) => void };
  const setup = internals._setupHandlers;
  if (typeof setup !== 'function') return;
  internals._setupHandlers = function (this: Server, http2Server, ...rest) {
    http2Server?.prependListener('stream', dropFarDeadline);
    return setup.call(this, http2Server, ...rest);
  };
}
