// A loopback reverse proxy for MCP clients that cannot send an Authorization header (the
// conformance CLI). It forwards every request to one upstream MCP URL and changes nothing except
// adding `Authorization: Bearer <token>` and pointing the request at the upstream:
//   - the method, the body and every header the client sent are forwarded as received, Host and
//     Origin included, so DNS-rebinding checks see exactly what the client sent (a proxy that
//     rewrote Host to the upstream's would hide a rebinding Host from the Engine);
//   - the client's path is appended to the upstream path (`/` → the MCP URL itself);
//   - the response status, headers and body stream back as they arrive (SSE is never buffered).
import { createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface BearerProxy {
  /** The proxy's MCP URL: http://127.0.0.1:<port>/mcp (the path maps to the upstream URL). */
  url: string;
  /** Every request seen: method, path and the client's headers (before the token was added). */
  requests: { method: string; path: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) are connection-specific and are not forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function forwardable(raw: string[], drop: Set<string>): OutgoingHttpHeaders {
  // rawHeaders keeps duplicates and the client's spelling; repeated headers become arrays.
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    const key = name.toLowerCase();
    if (HOP_BY_HOP.has(key) || drop.has(key)) continue;
    const existing = out[key];
    out[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

export async function startBearerProxy(upstreamUrl: string, token: string): Promise<BearerProxy> {
  const upstream = new URL(upstreamUrl);
  if (upstream.protocol !== 'http:') throw new Error('the bearer proxy forwards to http:// upstreams only');
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const requests: BearerProxy['requests'] = [];
  const sockets = new Set<Socket>();

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const incoming = new URL(req.url ?? '/', 'http://proxy');
    // The proxy is mounted at /mcp; anything after it is appended to the upstream MCP path.
    const rest = incoming.pathname.replace(/^\/mcp(?=\/|$)/, '');
    const path = basePath + (rest === '/' ? '' : rest) + incoming.search;
    requests.push({ method: req.method ?? 'GET', path: incoming.pathname, headers: { ...req.headers } });

    // The client's Authorization (if any) is replaced by the token: the one header that changes.
    const headers = forwardable(req.rawHeaders, new Set(['authorization']));
    headers.authorization = `Bearer ${token}`;
    // Host is forwarded as received. HTTP/1.1 requires one; a client that sent none gets the
    // upstream's so the request stays valid.
    headers.host ??= upstream.host;

    const upstreamReq = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path, headers, setHost: false },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, forwardable(upstreamRes.rawHeaders, new Set()));
        // Event streams must reach the client event by event: headers go out now, and each chunk
        // is written as it arrives (pipe buffers nothing beyond backpressure).
        res.flushHeaders();
        upstreamRes.pipe(res);
        upstreamRes.on('error', () => res.destroy());
        // The client went away (e.g. it closed an SSE stream): close the upstream side too.
        res.on('close', () => {
          if (!upstreamRes.complete) upstreamRes.destroy();
        });
      },
    );
    upstreamReq.on('error', (err) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`bearer proxy: upstream request failed: ${err.message}`);
    });
    req.on('aborted', () => upstreamReq.destroy());
    req.pipe(upstreamReq);
  };

  const server: Server = createServer(handle);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
