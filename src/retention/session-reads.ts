// session.get and session.page over a session's stored values and snapshots.
import { clip, invalidInput, isRecord } from './errors.ts';
import { pointerTokens, resolveTokens } from './pointer.ts';
import type { SessionStateStore } from './store.ts';
import { pageOf, type Page, type PageOptions } from './page.ts';

/** session.get: key set earlier via setValue, or `res_…` optionally followed by `#` and an RFC 6901 pointer into the snapshot. Returns the value (parsed JSON) or undefined for an unknown plain key; unknown/expired ref → MCP_RESULT_UNAVAILABLE; pointer missing → ENGINE_INVALID_INPUT. */
export async function sessionGet(store: SessionStateStore, sessionId: string, key: string): Promise<unknown> {
  if (typeof key !== 'string') throw invalidInput('session.get takes exactly one string argument');
  if (!key.startsWith('res_')) {
    const json = await store.getValue(sessionId, key);
    return json === undefined ? undefined : JSON.parse(json);
  }
  const { ref, pointer = '' } = splitRef(key);
  const tokens = pointerTokens(pointer, 'The pointer after # in session.get');
  const snapshot = await store.getSnapshot(sessionId, ref);
  const target = resolveTokens(snapshot, tokens);
  if (!target.found) throw invalidInput(`session.get: the stored result has no value at '${clip(pointer)}'`, { pointer: clip(pointer) });
  return target.value;
}

/**
 * session.page(result_ref, options): a page of the stored array. The reference may carry its
 * pointer as session.get's does (`res_…#/items`), which then stands for options.path.
 */
export async function sessionPage(store: SessionStateStore, sessionId: string, ref: unknown, options: unknown, outputBudgetBytes: number): Promise<Page> {
  if (typeof ref !== 'string') throw invalidInput('session.page takes a result_ref string (res_…) as its first argument');
  // A session.set key is no stored result: "unavailable" would send the agent to repeat provider calls.
  if (!ref.startsWith('res_')) throw invalidInput(`session.page reads a stored result (res_…); '${clip(ref)}' is not one (session.get reads values kept with session.set)`);
  const { ref: bare, pointer } = splitRef(ref);
  let opts = options ?? {};
  if (pointer !== undefined && isRecord(opts)) {
    if (Object.hasOwn(opts, 'path') && opts.path !== pointer) {
      throw invalidInput(`session.page: give the path once, after # in the result_ref or as options.path (they differ: '${clip(pointer)}' and '${clip(String(opts.path))}')`);
    }
    opts = { ...opts, path: pointer };
  }
  return pageOf(await store.getSnapshot(sessionId, bare), opts as PageOptions, outputBudgetBytes);
}

/** `res_…#/items/3` → the result_ref and the RFC 6901 pointer after `#` (undefined: none given). */
function splitRef(key: string): { ref: string; pointer: string | undefined } {
  const hash = key.indexOf('#');
  return hash < 0 ? { ref: key, pointer: undefined } : { ref: key.slice(0, hash), pointer: key.slice(hash + 1) };
}
