// The request body: read (at once when already buffered), checked against its declared type,
// length and encoding, parsed and validated; `Expect: 100-continue` answered only when it is read.
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ValidateFunction } from 'ajv';
import type { RouteSpec } from '../../generated/engine-api/routes.ts';
import { EngineError } from '../envelope/index.ts';
import { requestValidationError } from '../execution/index.ts';
import { checkJsonInput, parseJsonText } from '../json-input/index.ts';

const bodyRequired = (kind: RouteSpec['bodyType']) =>
  new EngineError('ENGINE_INVALID_INPUT', `body: a ${kind === 'form' ? 'form' : 'JSON request'} body is required`, { details: { field: 'body' } });
const tooLarge = (limit: number) =>
  new EngineError('ENGINE_INPUT_TOO_LARGE', `body: the request body exceeds the ${limit}-byte limit`, { details: { limitBytes: limit } });
const unreadable = () => new EngineError('ENGINE_INVALID_INPUT', 'body: the request body could not be read', { details: { field: 'body' } });

/**
 * Reads the whole body as UTF-8 (a leading BOM dropped) and hands it to `then`, refusing it past
 * `limit` bytes or when it does not match its Content-Length. The semantics of raw-body, without
 * its per-request set-up. A body read to its end leaves its listeners on the request, which ends
 * with it: five removeListener calls fewer on every request (a failure still removes them).
 */
function readText<T>(req: IncomingMessage, limit: number, length: number | undefined, then: (text: string) => T): Promise<T> {
  return new Promise((resolve, reject) => {
    if (req.readable === false) return reject(unreadable());
    const chunks: Buffer[] = [];
    let received = 0;
    let complete = false;
    const fail = (err: EngineError) => {
      complete = true;
      req.removeListener('aborted', onAborted);
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onEnd);
      req.unpipe();
      req.pause();
      reject(err);
    };
    function onAborted() {
      if (!complete) fail(unreadable());
    }
    function onData(chunk: Buffer) {
      if (complete) return;
      received += chunk.length;
      if (received > limit) fail(tooLarge(limit));
      else chunks.push(chunk);
    }
    function onEnd(err?: unknown) {
      if (complete) return;
      if (err || (length !== undefined && received !== length)) return fail(unreadable());
      complete = true;
      try {
        resolve(then(utf8Text(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received))));
      } catch (err) {
        reject(err);
      }
    }
    req.on('aborted', onAborted);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onEnd);
  });
}

/** A message already parsed in full has its whole body in the stream's buffer: read it synchronously. */
function readBuffered(req: IncomingMessage, limit: number, length: number | undefined): string {
  const chunks: Buffer[] = [];
  let received = 0;
  for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) {
    chunks.push(chunk);
    received += chunk.length;
  }
  if (received > limit) throw tooLarge(limit);
  if (length !== undefined && received !== length) throw unreadable();
  return utf8Text(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
}

/** The body as text (a leading BOM dropped); bytes that are not UTF-8 are refused, not replaced with U+FFFD. */
function utf8Text(bytes: Buffer): string {
  if (!isUtf8(bytes)) throw new EngineError('ENGINE_INVALID_INPUT', 'body: not valid UTF-8', { details: { field: 'body' } });
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Set by `acceptExpectContinue` on a request that sent `Expect: 100-continue`: sends the 100 once. */
const SEND_CONTINUE = Symbol('svc.sendContinue');
type ExpectingContinue = IncomingMessage & { [SEND_CONTINUE]?: () => void };

/**
 * Node's 'checkContinue' listener: the request is served as any other, and its `100 Continue` is
 * sent only when a route reads the body — a refusal before that (token, Content-Type, a declared
 * length past the limit) comes without first inviting the upload. MCP reads its own body: at once.
 */
export function acceptExpectContinue(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse) => {
    if ((req.url ?? '').startsWith('/mcp/')) res.writeContinue();
    else {
      (req as ExpectingContinue)[SEND_CONTINUE] = () => {
        delete (req as ExpectingContinue)[SEND_CONTINUE];
        res.writeContinue();
      };
    }
    handle(req, res);
  };
}

/**
 * The parsed and validated request body. At once when the message is already complete (the usual
 * small JSON body arrives with its headers), else a promise of it: a parsed body is never itself a promise.
 */
export function readBody(req: IncomingMessage, limit: number, required: boolean, kind: RouteSpec['bodyType'], secret: boolean, validate: ValidateFunction): unknown {
  const headers = req.headers;
  const contentType = headers['content-type'] ?? '';
  const semicolon = contentType.indexOf(';');
  // Media types are case-insensitive, with optional whitespace before parameters (RFC 9110 §8.3.1).
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  const expected = kind === 'form' ? 'application/x-www-form-urlencoded' : 'application/json';
  const declared = headers['content-length'];
  const parsedLength = declared ? Number.parseInt(declared, 10) : undefined;
  const length = parsedLength === undefined || Number.isNaN(parsedLength) ? undefined : parsedLength;
  // No body: no length and no chunks, or `Content-Length: 0` (what fetch sends for a bodyless POST, with no type).
  if ((!declared || length === 0) && !headers['transfer-encoding']) {
    if (required) throw bodyRequired(kind);
    return undefined;
  }
  if (type !== expected) {
    throw new EngineError('ENGINE_INVALID_INPUT', `body: Content-Type must be ${expected}`, { details: { field: 'content-type' } });
  }
  // A compressed body is never read as if it were the JSON it encodes.
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    throw new EngineError('ENGINE_INVALID_INPUT', 'body: Content-Encoding is not supported; send the body uncompressed', { details: { field: 'content-encoding' } });
  }
  if (length !== undefined && length > limit) throw tooLarge(limit);
  // Expect: 100-continue: the client waits for this before sending; only now, once the checks above passed.
  (req as ExpectingContinue)[SEND_CONTINUE]?.();
  if (req.complete) return parseBody(readBuffered(req, limit, length), required, kind, secret, validate);
  return readText(req, limit, length, (text) => parseBody(text, required, kind, secret, validate));
}

function parseBody(text: string, required: boolean, kind: RouteSpec['bodyType'], secret: boolean, validate: ValidateFunction): unknown {
  if (text === '') {
    if (required) throw bodyRequired(kind);
    return undefined;
  }
  const value = kind === 'form' ? Object.fromEntries(new URLSearchParams(text)) : parseJsonText(text, 'body');
  if (!validate(value)) throw requestValidationError('body', validate, secret);
  // The schema first, then the reader's own checks (nesting, numbers a double would change): a field
  // of the wrong type is named by its schema, and what passes it is named by its place in the body.
  if (kind === 'json') checkJsonInput(text, value, 'body', secret, true);
  return value;
}
