// Child side of the bench IPC protocol (parent side: test/bench/lib/child.ts). A server script
// calls `serve(start)`: `start` brings the server up and returns the info sent with `ready`
// plus a `stop` function. The child answers CPU-usage and profiling requests, stops on request,
// and exits when the parent goes away so no server outlives a bench run.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

export type Request = { type: 'cpu' } | { type: 'profile-start' } | { type: 'profile-stop'; path: string };
export type ParentMessage = { type: 'stop' } | { type: 'request'; id: number; request: Request };
export type ChildMessage =
  | { type: 'ready'; info: unknown }
  | { type: 'error'; message: string }
  | { type: 'reply'; id: number; value?: unknown; error?: string };

let session: Session | undefined;

async function answer(request: Request): Promise<unknown> {
  switch (request.type) {
    case 'cpu': {
      const u = process.cpuUsage();
      return u.user + u.system;
    }
    case 'profile-start':
      session ??= new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      return null;
    case 'profile-stop': {
      if (!session) throw new Error('profiling was not started');
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      session = undefined;
      writeFileSync(request.path, JSON.stringify(profile));
      return request.path;
    }
  }
}

export async function serve(start: () => Promise<{ info: unknown; stop: () => Promise<void> }>): Promise<void> {
  if (!process.send) throw new Error('bench servers must be started by test/bench/lib/child.ts (no IPC channel)');
  const send = (msg: ChildMessage) => process.send!(msg);
  let stopping = false;
  let stopServer: (() => Promise<void>) | undefined;

  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    const hardExit = setTimeout(() => process.exit(code), 3_000);
    hardExit.unref();
    try {
      await stopServer?.();
    } catch (err) {
      console.error(err);
    }
    process.exit(code);
  };

  process.on('message', (raw) => {
    const msg = raw as ParentMessage;
    if (msg.type === 'stop') void shutdown(0);
    else if (msg.type === 'request') {
      answer(msg.request).then(
        (value) => send({ type: 'reply', id: msg.id, value }),
        (err: unknown) => send({ type: 'reply', id: msg.id, error: String(err) }),
      );
    }
  });
  process.on('disconnect', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(130));
  process.on('SIGTERM', () => void shutdown(143));

  try {
    const started = await start();
    stopServer = started.stop;
    send({ type: 'ready', info: started.info });
  } catch (err) {
    send({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    await shutdown(1);
  }
}
