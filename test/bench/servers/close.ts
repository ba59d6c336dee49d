// Closes an http.Server promptly: stops listening and destroys keep-alive sockets.
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export function trackSockets(server: Server): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
}

/** Listens on a loopback port with long keep-alive and answers the ipc `serve` contract: its URL, and a stop that closes sockets, then `release`. */
export async function listenOnLoopback(server: Server, release: () => Promise<void>): Promise<{ info: { url: string }; stop: () => Promise<void> }> {
  server.keepAliveTimeout = 65_000;
  const close = trackSockets(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    info: { url: `http://127.0.0.1:${port}` },
    stop: async () => {
      await close();
      await release();
    },
  };
}
