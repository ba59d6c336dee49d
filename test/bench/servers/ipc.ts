// Child side of the bench IPC protocol (parent side: test/bench/lib/child.ts). A server script
// calls `serve(start)`: `start` brings the server up and returns the info sent with `ready`
// plus a `stop` function. The child answers CPU-usage queries, stops on request, and exits when
// the parent goes away so no server outlives a bench run.

export interface CpuUsage {
  user: number;
  system: number;
}

export type ParentMessage = { type: 'cpu'; id: number } | { type: 'stop' };
export type ChildMessage =
  | { type: 'ready'; info: unknown }
  | { type: 'error'; message: string }
  | { type: 'cpu'; id: number; usage: CpuUsage };

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
    if (msg.type === 'cpu') send({ type: 'cpu', id: msg.id, usage: process.cpuUsage() });
    else if (msg.type === 'stop') void shutdown(0);
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
