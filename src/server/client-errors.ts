// Refusals Node's HTTP layer makes before any route runs — a malformed request line, header or
// chunk; headers past the size limit; a request too slow to arrive; CONNECT; an Expect other than
// 100-continue; an HTTP/1.1 request without Host. Node's own answers carry no body: these carry the
// envelope every other refusal does, and never any of the request's bytes (they may hold a token).
import { STATUS_CODES, maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { failure, type EngineErrorCode } from '../envelope/index.ts';
import { throttledWarning, type Logger } from '../log/index.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** How long an answer may take to flush before its socket is cut anyway (a client that does not read). */
const FLUSH_GRACE_MS = 5_000;

/** Node's own cap on a chunk's extensions (not configurable). */
const MAX_CHUNK_EXTENSIONS_BYTES = 16 * 1024;

/** What each llhttp error means, in words: the parser's codes are fixed, and none holds request bytes. */
const PARSE_ERRORS: Record<string, string> = {
  HPE_INVALID_METHOD: 'the method is not a valid HTTP method',
  HPE_INVALID_URL: 'the request target is not a valid path',
  HPE_INVALID_VERSION: 'the HTTP version is not one this Engine speaks (HTTP/1.0 or HTTP/1.1)',
  HPE_INVALID_CONSTANT: 'the request line is not `METHOD /path HTTP/1.1`',
  HPE_INVALID_HEADER_TOKEN: 'a header name or value holds a character HTTP does not allow',
  HPE_UNEXPECTED_SPACE: 'unexpected whitespace in the request line or a header',
  HPE_CR_EXPECTED: 'a line does not end with CRLF',
  HPE_LF_EXPECTED: 'a line does not end with CRLF',
  HPE_INVALID_CONTENT_LENGTH: 'Content-Length is not a decimal number',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length is repeated or sent with Transfer-Encoding',
  HPE_INVALID_TRANSFER_ENCODING: 'Transfer-Encoding must end with chunked',
  HPE_INVALID_CHUNK_SIZE: 'the chunked body has an invalid chunk size',
  HPE_STRICT: 'the chunked body is malformed',
  HPE_INVALID_EOF_STATE: 'the connection was closed before the request was complete',
  HPE_CLOSED_CONNECTION: 'a request followed one that said Connection: close',
};

/** An Engine refusal as envelope JSON, with the HTTP status Node's layer answers with (408, 417, 431, …). */
function refusalBody(status: number, code: EngineErrorCode | 'ENGINE_METHOD_NOT_ALLOWED', message: string, details?: Record<string, unknown>, retryable = false): string {
  return JSON.stringify(failure(status, { code, message, retryable, details: { ...details, provider_execution: 'not_started' } }));
}

const headers = (body: string) => ({
  'content-type': JSON_TYPE,
  'content-length': Buffer.byteLength(body),
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  connection: 'close',
});

/** A whole HTTP/1.1 response, for a socket no ServerResponse will answer on. */
function rawResponse(status: number, body: string): string {
  const head = Object.entries({ ...headers(body), date: new Date().toUTCString() })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${head}\r\n${body}`;
}

/** Sends `bytes` and closes the socket once they are flushed, or after FLUSH_GRACE_MS. */
function endWith(socket: Duplex, bytes: string): void {
  const timer = setTimeout(() => socket.destroy(), FLUSH_GRACE_MS).unref();
  socket.end(bytes, () => {
    clearTimeout(timer);
    socket.destroy();
  });
}

function refuse(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, headers(body));
  res.end(body);
}

/** The refusal of a request Node could not parse, or that did not arrive in time; undefined for a socket error (a reset). */
function clientErrorAnswer(err: Error & { code?: string }, server: Server, inFlight: boolean, headerLimit: number): { status: number; body: string } | undefined {
  const code = err.code ?? '';
  if (code === 'HPE_HEADER_OVERFLOW') {
    const message = `the request line and headers exceed the ${headerLimit}-byte limit`;
    return { status: 431, body: refusalBody(431, 'ENGINE_INPUT_TOO_LARGE', message, { limitBytes: headerLimit }) };
  }
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    const message = `the chunked body's chunk extensions exceed the ${MAX_CHUNK_EXTENSIONS_BYTES}-byte limit`;
    return { status: 413, body: refusalBody(413, 'ENGINE_INPUT_TOO_LARGE', message, { limitBytes: MAX_CHUNK_EXTENSIONS_BYTES }) };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // With a response in flight the headers arrived: it is the body that was too slow.
    const [what, limitMs] = inFlight ? ['the whole request', server.requestTimeout] : ['the request headers', server.headersTimeout];
    const message = `${what} did not arrive within ${limitMs} ms; send the request again without pausing`;
    return { status: 408, body: refusalBody(408, 'ENGINE_INVALID_INPUT', message, { limitMs }, true) };
  }
  if (!code.startsWith('HPE_')) return undefined;
  const message = `malformed HTTP request (${code}): ${PARSE_ERRORS[code] ?? 'the request does not follow HTTP/1.1 syntax'}`;
  return { status: 400, body: refusalBody(400, 'ENGINE_INVALID_INPUT', message) };
}

/** Sockets already answered: Node's parser reports its error again for every later chunk. */
const answered = new WeakSet<Duplex>();

/**
 * Answers Node's pre-route refusals on `server` with envelopes (see the top of this file; `headerLimit`
 * is the server's maxHeaderSize) and
 * warns, at most once a minute, while connections past `server.maxConnections` are dropped.
 */
export function answerClientErrors(server: Server, log: Logger, headerLimit: number = maxHeaderSize): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    // Node's rule: answer only when no byte of a response in flight has gone out.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    const answer = socket.writable && !inFlight?.headersSent ? clientErrorAnswer(err, server, Boolean(inFlight), headerLimit) : undefined;
    if (!answer) return void socket.destroy();
    // Only the code: the error's rawPacket holds request bytes, maybe a token.
    log.debug({ code: err.code, status: answer.status }, 'refused a request Node could not parse or that arrived too slowly');
    const bytes = rawResponse(answer.status, answer.body);
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      // The parser still works: a request it completed later would run. Gone at once, as Node does.
      socket.write(bytes);
      socket.destroy();
    } else {
      // The parser is stuck in its error (it runs nothing more): the answer can be flushed first.
      endWith(socket, bytes);
    }
  });

  // Node drops a CONNECT unanswered when nothing listens for it.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    log.debug({ method: req.method, status: 501 }, 'refused CONNECT');
    const body = refusalBody(501, 'ENGINE_METHOD_NOT_ALLOWED', 'CONNECT is not a method this Engine serves');
    socket.on('error', () => undefined);
    endWith(socket, rawResponse(501, body));
  });

  server.on('drop', throttledWarning(log, () => ({ maxConnections: server.maxConnections }), 'connection limit reached: new connections are closed unanswered (SVC_HTTP_MAX_CONNECTIONS)'));
}

/**
 * Refuses an HTTP/1.1 request without Host (RFC 9112 §3.2) with an envelope. The server must be
 * created with `requireHostHeader: false`, or Node answers it first with an empty 400.
 */
export function requireHost<L extends (req: IncomingMessage, res: ServerResponse) => unknown>(listener: L): L {
  return ((req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
      return refuse(res, 400, refusalBody(400, 'ENGINE_INVALID_INPUT', 'an HTTP/1.1 request must carry a Host header', { field: 'host' }));
    }
    return listener(req, res);
  }) as L;
}

/** Node's 'checkExpectation' listener: an Expect other than 100-continue is refused with 417. */
export function refuseExpectation(_req: IncomingMessage, res: ServerResponse): void {
  refuse(res, 417, refusalBody(417, 'ENGINE_INVALID_INPUT', 'Expect: only 100-continue is supported', { field: 'expect' }));
}

/**
 * Closes connections whose client stopped taking what the Engine sends: bytes queued on the socket,
 * none sent or added for `sendTimeoutMs`. Node has no send timeout, so a client that asks for a
 * large answer and never reads it would hold the socket and the answer's buffer for ever. Node
 * reports no progress inside one queued write, so an answer must be taken whole within the timeout
 * once the Engine has written it. Idle connections and event streams with nothing queued are left
 * alone. Connections are swept a few times per timeout, not watched per request (the hot path).
 * Returns the function that stops the sweep.
 */
export function closeStalledSends(server: Server, sendTimeoutMs: number, log: Logger): () => void {
  const sockets = new Set<Socket>();
  /** Per socket with bytes queued: bytesWritten when first seen so, and when. */
  const stalled = new WeakMap<Socket, { written: number; since: number }>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const sweep = setInterval(
    () => {
      const now = performance.now();
      let closed = 0;
      for (const socket of sockets) {
        if (socket.writableLength === 0 || socket.destroyed) {
          stalled.delete(socket);
          continue;
        }
        const seen = stalled.get(socket);
        if (!seen || seen.written !== socket.bytesWritten) stalled.set(socket, { written: socket.bytesWritten, since: now });
        else if (now - seen.since >= sendTimeoutMs) {
          socket.destroy();
          closed++;
        }
      }
      if (closed) log.warn({ closed, sendTimeoutMs }, 'closed connections whose client stopped reading its answer (SVC_HTTP_SEND_TIMEOUT_MS)');
    },
    Math.max(100, Math.floor(sendTimeoutMs / 4)),
  ).unref();
  return () => clearInterval(sweep);
}
