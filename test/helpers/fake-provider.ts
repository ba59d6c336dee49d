// Fake providers are real HTTP servers on 127.0.0.1 that count and record what they receive.
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** The raw request target, exactly as it arrived on the request line. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeProvider {
  url: string;
  requests: RecordedRequest[];
  /** Bytes received on all connections so far, requests read in full or not. */
  readonly bytesReceived: number;
  stop(): Promise<void>;
}

export type FakeHandler = (req: RecordedRequest, res: ServerResponse, socket: Socket) => void | Promise<void>;

export async function startFakeProvider(handler: FakeHandler): Promise<FakeProvider> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let bytesReceived = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    requests.push(recorded);
    try {
      await handler(recorded, res, req.socket);
    } catch (err) {
      res.statusCode = 500;
      res.end(String(err));
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('data', (d: Buffer) => (bytesReceived += d.length));
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get bytesReceived() {
      return bytesReceived;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
