// Closes an http.Server promptly: stops listening and destroys keep-alive sockets.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

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
