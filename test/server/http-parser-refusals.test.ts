// Requests Node's HTTP layer refuses before any route runs get the Engine's envelope, never an empty
// answer, and never an echo of the request's bytes; SVC_HTTP_MAX_CONNECTIONS is checked and applied.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxHeaderSize } from 'node:http';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { runSvcEngine } from '../fixtures/svc-engine.ts';

const CANARY = 'svc_sdk_CANARY7f3a9c1e5b2d4f60a8c9e1b3d5f7a9c1';

interface Answer {
  /** Everything the server sent, as Latin-1 text. */
  text: string;
  status: number | undefined;
  /** Response headers, names lowercased. */
  headers: Record<string, string>;
  body: any;
  /** Whether the server closed the connection before `waitMs`. */
  closed: boolean;
}

/** Sends `parts` on a fresh connection, `gapMs` apart (then FIN with `fin`), and reads what comes back until close or `waitMs`. */
function exchange(url: string, parts: string[], options: { gapMs?: number; waitMs?: number; fin?: boolean } = {}): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    let closed = false;
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      const bodyText = rest.join('\r\n\r\n');
      let body: unknown;
      try {
        body = JSON.parse(bodyText);
      } catch {
        body = bodyText;
      }
      resolve({ text, status: /^HTTP\/1\.1 (\d{3}) /.test(statusLine) ? Number(statusLine.slice(9, 12)) : undefined, headers, body, closed });
    };
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      done();
    });
    socket.on('connect', async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, options.gapMs ?? 150));
        if (!socket.destroyed) socket.write(part);
      }
      if (options.fin) socket.end();
      timer = setTimeout(done, options.waitMs ?? 2000);
    });
  });
}

/** The status line, headers and envelope every pre-route refusal carries. */
function expectRefusal(answer: Answer, status: number, code: string, message: RegExp) {
  expect(answer.text, answer.text).toMatch(new RegExp(`^HTTP/1\\.1 ${status} [A-Z]`));
  expect(answer.headers).toMatchObject({
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4))),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  expect(answer.body).toMatchObject({ ok: false, status, data: null, error: { code, details: { provider_execution: 'not_started' } } });
  expect(answer.body.error.message).toMatch(message);
  // One answer, then the connection is closed.
  expect(answer.text.match(/HTTP\/1\.1 \d{3}/g)).toHaveLength(1);
  expect(answer.closed).toBe(true);
}

/** The head of a chunked request whose route waits for its body (the body's own refusal comes first). */
const chunkedPut = (e: TestEngine) =>
  `PUT /v1/workspace/services/demo-crm HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${e.cliToken}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;

/** Log lines as objects. */
const logLines = (t: TestEngine) => t.logs.map((l) => JSON.parse(l) as Record<string, unknown>);

let t: TestEngine;

beforeAll(async () => {
  t = await startTestEngine();
  t.canaries.push(CANARY);
});

afterAll(async () => {
  await t?.stop();
});

describe('a request Node cannot parse', () => {
  it('gets 400 ENGINE_INVALID_INPUT naming what was wrong, for a malformed request line', async () => {
    const cases: [string, RegExp][] = [
      ['G@T /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', /^malformed HTTP request \(HPE_INVALID_METHOD\): the method is not a valid HTTP method$/],
      ['GET /healthz HTTP/7.3\r\nHost: 127.0.0.1\r\n\r\n', /^malformed HTTP request \(HPE_INVALID_VERSION\): /],
      ['GET /healthz\x7f HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', /^malformed HTTP request \(HPE_INVALID_URL\): /],
    ];
    for (const [bytes, message] of cases) expectRefusal(await exchange(t.url, [bytes]), 400, 'ENGINE_INVALID_INPUT', message);
  });

  it('never echoes the request or logs its raw bytes: a token in a malformed request stays out of the answer and the logs', async () => {
    const malformed = [
      `GET /v1/workspace HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${CANARY}\r\nX-Bad Header: junk\r\n\r\n`,
      `POST /v1/apps/${CANARY} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1x\r\n\r\n`,
      `GET /${CANARY}\x00 HTTP/1.1\r\n\r\n`,
    ];
    const answers = await Promise.all(malformed.map((bytes) => exchange(t.url, [bytes])));
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.text).not.toContain(CANARY);
      expect(answer.text).not.toContain('CANARY');
    }
    expect(answers[0]!.body.error.message).toContain('HPE_INVALID_HEADER_TOKEN');
    expect(answers[1]!.body.error.message).toContain('Content-Length is not a decimal number');
    // Each refusal was logged (debug), by its code only.
    const refusals = logLines(t).filter((l) => l.msg === 'refused a request Node could not parse or that arrived too slowly');
    expect(refusals.map((l) => l.code)).toEqual(expect.arrayContaining(['HPE_INVALID_HEADER_TOKEN', 'HPE_INVALID_CONTENT_LENGTH', 'HPE_INVALID_URL']));
    expect(t.logs.join('\n')).not.toContain('CANARY');
    expect(t.logs.join('\n')).not.toContain('rawPacket');
  });

  it('gets 400 for a bad chunked body, even with its route already waiting for the body', async () => {
    const answer = await exchange(t.url, [chunkedPut(t), `5\r\n{"ver\r\n${CANARY}\r\n`], { gapMs: 200 });
    expectRefusal(answer, 400, 'ENGINE_INVALID_INPUT', /^malformed HTTP request \(HPE_INVALID_CHUNK_SIZE\): the chunked body has an invalid chunk size$/);
    expect(answer.text).not.toContain('CANARY');
    expect(t.logs.join('\n')).not.toContain('CANARY');
    expect(t.logs.join('\n')).not.toContain('rawPacket');
  });

  it('gets 413 ENGINE_INPUT_TOO_LARGE for a chunk whose extensions are too large', async () => {
    const answer = await exchange(t.url, [chunkedPut(t), `2;ext=${'e'.repeat(20 * 1024)}\r\n{}\r\n0\r\n\r\n`]);
    expectRefusal(answer, 413, 'ENGINE_INPUT_TOO_LARGE', /^the chunked body's chunk extensions exceed the 16384-byte limit$/);
  });

  it('gets 431 ENGINE_INPUT_TOO_LARGE naming the limit when the headers are too large, without echoing them', async () => {
    const big = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${CANARY}\r\nX-Padding: ${'a'.repeat(maxHeaderSize)}\r\n\r\n`;
    const answer = await exchange(t.url, [big]);
    expectRefusal(answer, 431, 'ENGINE_INPUT_TOO_LARGE', new RegExp(`^the request line and headers exceed the ${maxHeaderSize}-byte limit$`));
    expect(answer.body.error.details.limitBytes).toBe(maxHeaderSize);
    expect(answer.text).not.toContain('CANARY');
  });

  it('gets 400 when the client half-closes before its request is complete', async () => {
    const answer = await exchange(t.url, ['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: '], { fin: true });
    expectRefusal(answer, 400, 'ENGINE_INVALID_INPUT', /^malformed HTTP request \(HPE_INVALID_EOF_STATE\): the connection was closed before the request was complete$/);
  });
});

describe('requests Node refuses after parsing them', () => {
  it('an HTTP/1.1 request without Host gets 400 naming the header', async () => {
    const answer = await exchange(t.url, ['GET /healthz HTTP/1.1\r\n\r\n']);
    expectRefusal(answer, 400, 'ENGINE_INVALID_INPUT', /Host header/);
    expect(answer.body.error.details.field).toBe('host');
    // HTTP/1.0 needs none.
    expect((await exchange(t.url, ['GET /healthz HTTP/1.0\r\n\r\n'])).status).toBe(200);
  });

  it('an Expect other than 100-continue gets 417', async () => {
    const answer = await exchange(t.url, ['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\n\r\n']);
    expectRefusal(answer, 417, 'ENGINE_INVALID_INPUT', /^Expect: only 100-continue is supported$/);
    expect(answer.body.error.details.field).toBe('expect');
  });

  it('CONNECT gets 501 ENGINE_METHOD_NOT_ALLOWED instead of a dropped connection', async () => {
    const answer = await exchange(t.url, ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n']);
    expectRefusal(answer, 501, 'ENGINE_METHOD_NOT_ALLOWED', /CONNECT is not a method this Engine serves/);
  });
});

describe('a request too slow to arrive', () => {
  let slow: TestEngine;
  beforeAll(async () => {
    slow = await startTestEngine({ SVC_HTTP_HEADERS_TIMEOUT_MS: '300', SVC_HTTP_REQUEST_TIMEOUT_MS: '900' });
  });
  afterAll(async () => {
    await slow?.stop();
  });

  it('gets 408 naming the headers timeout when its headers trickle', async () => {
    const started = Date.now();
    const answer = await exchange(slow.url, ['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '], { waitMs: 5000 });
    expectRefusal(answer, 408, 'ENGINE_INVALID_INPUT', /^the request headers did not arrive within 300 ms/);
    expect(answer.body.error.retryable).toBe(true);
    expect(answer.body.error.details.limitMs).toBe(300);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('gets 408 naming the request timeout when its body trickles', async () => {
    const head = `PUT /v1/workspace/services/demo-crm HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${slow.cliToken}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"vers`;
    const answer = await exchange(slow.url, [head], { waitMs: 5000 });
    expectRefusal(answer, 408, 'ENGINE_INVALID_INPUT', /^the whole request did not arrive within 900 ms/);
    expect(answer.body.error.details.limitMs).toBe(900);
    expect((await fetch(`${slow.url}/healthz`)).status).toBe(200);
  });
});

describe('SVC_HTTP_MAX_HEADER_BYTES', () => {
  let roomy: TestEngine;
  beforeAll(async () => {
    roomy = await startTestEngine({ SVC_HTTP_MAX_HEADER_BYTES: '65536' });
  });
  afterAll(async () => {
    await roomy?.stop();
  });

  it('reads headers up to the limit it sets (a proxy that adds a large cookie), and names that limit past it', async () => {
    const head = (padding: number) => `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: sso=${'c'.repeat(padding)}\r\nConnection: close\r\n\r\n`;
    const fits = await exchange(roomy.url, [head(40 * 1024)]);
    expect(fits.status).toBe(200);
    const over = await exchange(roomy.url, [head(70 * 1024)]);
    expectRefusal(over, 431, 'ENGINE_INPUT_TOO_LARGE', /^the request line and headers exceed the 65536-byte limit$/);
    expect(over.body.error.details.limitBytes).toBe(65536);
    // The default Engine refuses the 40 KiB one.
    expect((await exchange(t.url, [head(40 * 1024)])).status).toBe(431);
  });

  it("defaults to Node's own limit (16 KiB, or what --max-http-header-size set), and refuses a setting outside 1 KiB to 1 MiB, naming it", () => {
    expect(loadConfig({}).httpMaxHeaderBytes).toBe(maxHeaderSize);
    for (const bad of ['512', '2000000', 'big']) expect(() => loadConfig({ SVC_HTTP_MAX_HEADER_BYTES: bad })).toThrow(/SVC_HTTP_MAX_HEADER_BYTES/);
  });
});

describe('SVC_HTTP_MAX_CONNECTIONS', () => {
  it('is a positive integer, 10000 by default; a bad value stops the Engine with one line naming it', async () => {
    expect(loadConfig({}).httpMaxConnections).toBe(10_000);
    expect(loadConfig({ SVC_HTTP_MAX_CONNECTIONS: ' 250 ' }).httpMaxConnections).toBe(250);
    for (const bad of ['0', '-5', '1e3', 'many', '1000001']) {
      expect(() => loadConfig({ SVC_HTTP_MAX_CONNECTIONS: bad }), bad).toThrow(`SVC_HTTP_MAX_CONNECTIONS must be an integer from 1 to 1000000 (got '${bad}')`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'svc-max-conn-'));
    try {
      const run = await runSvcEngine(dir, ['serve'], { SVC_HTTP_MAX_CONNECTIONS: '0' });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr.trim()).toBe("svc-engine: SVC_HTTP_MAX_CONNECTIONS must be an integer from 1 to 1000000 (got '0')");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('closes connections past the limit unanswered, warning once for the burst; freed room serves again', async () => {
    const e = await startTestEngine({ SVC_HTTP_MAX_CONNECTIONS: '2' });
    const held = [connect(Number(new URL(e.url).port), '127.0.0.1'), connect(Number(new URL(e.url).port), '127.0.0.1')];
    try {
      // Two keep-alive connections, each answered, hold both places.
      for (const socket of held) {
        socket.on('error', () => undefined);
        const answered = new Promise((r) => socket.once('data', r));
        socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        await answered;
      }
      const over = await Promise.all([1, 2, 3, 4].map(() => exchange(e.url, ['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'])));
      for (const answer of over) {
        expect(answer.closed).toBe(true);
        expect(answer.text).toBe('');
      }
      const warnings = logLines(e).filter((l) => l.level === 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ maxConnections: 2, dropped: 1, msg: expect.stringContaining('SVC_HTTP_MAX_CONNECTIONS') });

      for (const socket of held) socket.destroy();
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 20));
        status = (await exchange(e.url, ['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'], { waitMs: 500 })).status ?? 0;
      }
      expect(status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
      await e.stop();
    }
  });
});
