// Baseline: a bare pass-through proxy, the floor for any Node proxy. It forwards each request
// with undici over a keep-alive Agent (same settings as the Engine's Dispatcher) to the upstream
// in BENCH_UPSTREAM_URL, adding only `Authorization: Bearer <BENCH_PROVIDER_KEY>`, and streams
// the response straight into the client's response (`undici.stream`, no intermediate Readable).
// No auth, validation, parsing, logging or receipts.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { Agent, stream } from 'undici';
import { serve } from './ipc.ts';
import { listenOnLoopback } from './close.ts';

// RFC 9110 §7.6.1 connection-specific fields, plus host (undici sets it from the origin).
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

function forwardable(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  return out;
}

await serve(async () => {
  const upstream = process.env.BENCH_UPSTREAM_URL;
  const key = process.env.BENCH_PROVIDER_KEY;
  if (!upstream || !key) throw new Error('BENCH_UPSTREAM_URL and BENCH_PROVIDER_KEY must be set');
  const authorization = `Bearer ${key}`;
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 256, pipelining: 1 });

  const server = createServer(async (req, res) => {
    try {
      const headers = forwardable(req.headers);
      headers.authorization = authorization;
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      await stream(
        upstream + req.url,
        { method: req.method as 'GET', headers, body: hasBody ? req : null, dispatcher: agent },
        ({ statusCode, headers: upHeaders }) => {
          res.writeHead(statusCode, forwardable(upHeaders));
          return res;
        },
      );
    } catch (err) {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`bad gateway: ${(err as Error).message}`);
    }
  });
  return listenOnLoopback(server, () => agent.close());
});
