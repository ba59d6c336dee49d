// The fake provider for the REST benchmarks: a small, fast node:http server answering
// GET /v1/contacts/{id} with a fixed ~1 KB JSON body (and POST /v1/contacts with it as 201, a
// write), only with `Authorization: Bearer <key>`.
// Run as a child process by test/bench/lib/child.ts; env BENCH_PROVIDER_KEY holds the key.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from './ipc.ts';
import { trackSockets } from './close.ts';
import { CONTACT_BODY } from './contact.ts';

await serve(async () => {
  const key = process.env.BENCH_PROVIDER_KEY;
  if (!key) throw new Error('BENCH_PROVIDER_KEY is not set');
  const expected = `Bearer ${key}`;
  const body = Buffer.from(CONTACT_BODY);
  const ok = { 'content-type': 'application/json', 'content-length': String(body.length) };
  const unauthorized = Buffer.from('{"error":{"type":"unauthorized","message":"missing or wrong API key"}}');
  const notFound = Buffer.from('{"error":{"type":"not_found","message":"no such route"}}');

  const server = createServer((req, res) => {
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'content-type': 'application/json', 'content-length': String(unauthorized.length) });
      res.end(unauthorized);
    } else if (req.method === 'POST' && req.url === '/v1/contacts') {
      req.resume();
      req.once('end', () => {
        res.writeHead(201, ok);
        res.end(body);
      });
    } else if (req.method !== 'GET' || !req.url?.startsWith('/v1/contacts/con_')) {
      res.writeHead(404, { 'content-type': 'application/json', 'content-length': String(notFound.length) });
      res.end(notFound);
    } else {
      res.writeHead(200, ok);
      res.end(body);
    }
  });
  server.keepAliveTimeout = 65_000;
  const close = trackSockets(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { info: { url: `http://127.0.0.1:${port}` }, stop: close };
});
