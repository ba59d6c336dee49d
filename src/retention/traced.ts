// Session storage with spans (src/telemetry): each snapshot and session value read or write is a
// span `session <op>` naming the store kind and the bytes, never a session ID, key or value.
import { inSpan } from '../telemetry/index.ts';
import type { SessionStateStore } from './store.ts';

const TRACED: Readonly<Record<string, string>> = { putSnapshot: 'put_snapshot', getSnapshot: 'get_snapshot', setValue: 'set_value', getValue: 'get_value' };

/** `store`, its snapshot and value methods in spans; every other method as it is. */
export function tracedSessionState(store: SessionStateStore, kind: 'memory' | 'redis'): SessionStateStore {
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const op = typeof property === 'string' ? TRACED[property] : undefined;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      if (!op) return method.bind(target);
      return (...args: unknown[]) =>
        inSpan(`session ${op}`, { 'svc.session.op': op, 'svc.session.store': kind, 'svc.session.bytes': op === 'set_value' ? Buffer.byteLength(String(args[2])) : undefined }, () => method.apply(target, args), {
          outcome: (result) => (op === 'put_snapshot' ? { 'svc.session.bytes': (result as { bytes: number }).bytes } : {}),
        });
    },
  });
}
