// The MCP_RESULT_STORED envelope: ref, expiry, sizes, a directly executable next_request, a structural
// preview and the discovered collections, shrunk until the whole envelope fits the output budget.
import { RetentionError, checkBudget, isRecord, utf8 } from './errors.ts';
import { discoverCollections, DISCOVERY_LIMITS, type CollectionDescriptor } from './discovery.ts';
import { pageOf } from './page.ts';
import { pointerTokens, resolveTokens } from './pointer.ts';

export const SAME_SESSION_STATEMENT =
  'Session-bound: result_ref can be read only with session.get or session.page inside execute on this same MCP session, and only until expiry. Other sessions and new connections cannot read it.';

/** The execute request the envelope hands back; same argument shape as the tool. */
export interface NextRequest {
  tool: 'execute';
  arguments: { code: string; outputBudgetBytes: number };
}

// ---------------------------------------------------------------------------------------------- preview

/** Structural shape: type names, object keys and array lengths; never a string, number or boolean value. */
type Shape =
  | 'string' | 'number' | 'boolean' | 'null'
  | { type: 'array'; length: number; first_item?: Shape }
  | { type: 'object'; key_count: number; keys?: Record<string, Shape>; keys_complete: boolean };

interface PreviewLimits {
  depth: number; // container levels whose contents are shown
  keys: number; // keys shown per object
}

const PREVIEW_NODES = 256;

function shapeOf(value: unknown, depth: number, limits: PreviewLimits, budget: { nodes: number }): Shape {
  budget.nodes--;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  const open = depth < limits.depth && budget.nodes > 0;
  if (Array.isArray(value)) {
    const shape: Shape = { type: 'array', length: value.length };
    if (open && value.length) shape.first_item = shapeOf(value[0], depth + 1, limits, budget);
    return shape;
  }
  if (typeof value !== 'object') return 'null';
  const names = Object.keys(value);
  if (!open || !names.length) return { type: 'object', key_count: names.length, keys_complete: names.length === 0 };
  const keys: Record<string, Shape> = {};
  let shown = 0;
  for (const name of names) {
    if (shown === limits.keys || budget.nodes <= 0) break;
    if (utf8(name) > DISCOVERY_LIMITS.fieldNameBytes) continue;
    Object.defineProperty(keys, name, { value: shapeOf((value as Record<string, unknown>)[name], depth + 1, limits, budget), enumerable: true, writable: true, configurable: true });
    shown++;
  }
  return { type: 'object', key_count: names.length, keys, keys_complete: shown === names.length };
}

export function previewOf(value: unknown, limits: PreviewLimits): { complete: false; shape: Shape } {
  return { complete: false, shape: shapeOf(value, 0, limits, { nodes: PREVIEW_NODES }) };
}

// --------------------------------------------------------------------------------------- next_request

const lit = (text: string): string => JSON.stringify(text); // a JSON string is a valid TS string literal
const resultBytes = (result: unknown): number => utf8(JSON.stringify({ result }));

/** Largest n in [0, max] with fits(n), for a predicate that holds up to some point and not after. */
function largest(max: number, fits: (n: number) => boolean): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Code that reads the value at `pointer` with session.get and returns a part that fits the budget. */
function inspectCode(ref: string, pointer: string, target: unknown, budget: number): string {
  const get = `await session.get(${lit(pointer === '' ? ref : `${ref}#${pointer}`)})`;
  if (typeof target === 'string') {
    // Every UTF-16 unit takes at least one byte, so no more than `budget` units can fit.
    const n = largest(Math.min(target.length, budget), (k) => resultBytes(target.slice(0, k)) <= budget);
    return `return (${get}).slice(0, ${n});`;
  }
  if (isRecord(target)) {
    const names = Object.keys(target);
    let bytes = utf8('{"result":[]}');
    let n = 0;
    for (; n < names.length; n++) {
      bytes += utf8(JSON.stringify(names[n])) + (n ? 1 : 0);
      if (bytes > budget) break;
    }
    return n === names.length ? `return Object.keys(${get});` : `return Object.keys(${get}).slice(0, ${n});`;
  }
  if (Array.isArray(target)) return `return (${get}).length;`;
  return `return ${get};`;
}

/** Candidate next requests, best first; the last one (root inspection) is always short. */
function nextCodes(ref: string, value: unknown, collections: readonly CollectionDescriptor[], budget: number): { code: string; path?: string }[] {
  const codes: { code: string; path?: string }[] = [];
  const inspect: { code: string; path?: string }[] = [];
  const byCount = collections.filter((c) => c.count > 0).sort((a, b) => b.count - a.count);
  for (const c of byCount) {
    try {
      pageOf(value, { path: c.path, offset: 0 }, budget);
      codes.push({ code: `return await session.page(${lit(ref)}, ${JSON.stringify({ path: c.path, offset: 0 })});`, path: c.path });
    } catch (err) {
      if (!(err instanceof RetentionError) || err.code !== 'MCP_RESULT_ROW_TOO_LARGE') throw err;
      const rowPointer = `${c.path}/0`;
      inspect.push({ code: inspectCode(ref, rowPointer, resolveTokens(value, pointerTokens(rowPointer, 'path')).value, budget), path: c.path });
    }
  }
  return [...codes, ...inspect, { code: inspectCode(ref, '', value, budget) }];
}

// ------------------------------------------------------------------------------------------- envelope

/** Preview sizes from richest to leanest; the leanest shows only the root's type. */
const PREVIEWS: PreviewLimits[] = [
  { depth: 4, keys: 16 },
  { depth: 3, keys: 16 },
  { depth: 2, keys: 8 },
  { depth: 1, keys: 16 },
  { depth: 1, keys: 4 },
  { depth: 0, keys: 0 },
];

interface Plan {
  preview: PreviewLimits;
  listed: { collection: CollectionDescriptor; fields: number }[];
}

/**
 * Builds the MCP_RESULT_STORED envelope; the whole envelope serialized as JSON fits outputBudgetBytes.
 * When everything does not fit, it is rebuilt from the leanest form, adding in order of use while it still
 * fits: the collection next_request reads and its fields, the root's keys in the preview, the other
 * collections, their fields, then a deeper preview. What is left out is marked by the *_complete flags.
 */
export function storedEnvelope(args: { ref: string; expiresAt: number; bytes: number; outputBudgetBytes: number; value: unknown }): Record<string, unknown> {
  const { ref, expiresAt, bytes, outputBudgetBytes: budget, value } = args;
  checkBudget(budget);
  const discovery = discoverCollections(value);
  const ordered = [...discovery.collections].sort((a, b) => b.count - a.count);
  const expiry = new Date(expiresAt).toISOString();
  const message = `The result (${bytes} bytes) exceeds the output budget (${budget} bytes) and was stored; run next_request to read it.`;

  for (const next of nextCodes(ref, value, ordered, budget)) {
    // The collection next_request reads goes first, so it is the last to be cut.
    const first = ordered.findIndex((c) => c.path === next.path);
    const collections = first > 0 ? [ordered[first]!, ...ordered.slice(0, first), ...ordered.slice(first + 1)] : ordered;
    const build = (plan: Plan) => {
      const listed = plan.listed.map(({ collection: c, fields }) => ({
        path: c.path,
        count: c.count,
        fields: c.fields.slice(0, fields),
        fields_complete: c.fields_complete && fields >= c.fields.length,
      }));
      return {
        code: 'MCP_RESULT_STORED',
        message,
        result_ref: ref,
        expiry,
        byte_size: bytes,
        effective_output_budget: budget,
        same_session_state: SAME_SESSION_STATEMENT,
        next_request: { tool: 'execute', arguments: { code: next.code, outputBudgetBytes: budget } } satisfies NextRequest,
        preview: previewOf(value, plan.preview),
        collections: listed,
        collections_complete: discovery.collections_complete && listed.length === collections.length,
      };
    };
    const fits = (plan: Plan) => utf8(JSON.stringify(build(plan))) <= budget;

    const full: Plan = { preview: PREVIEWS[0]!, listed: collections.map((collection) => ({ collection, fields: collection.fields.length })) };
    if (fits(full)) return build(full);
    const plan: Plan = { preview: PREVIEWS.at(-1)!, listed: [] };
    if (!fits(plan)) continue; // next_request itself is too long: try a shorter one
    const addCollection = (collection: CollectionDescriptor) => {
      plan.listed.push({ collection, fields: 0 });
      if (fits(plan)) return true;
      plan.listed.pop();
      return false;
    };
    const addFields = (entry: Plan['listed'][number]) => {
      entry.fields = largest(entry.collection.fields.length, (n) => {
        entry.fields = n;
        return fits(plan);
      });
    };
    const tryPreview = (preview: PreviewLimits) => {
      const before = plan.preview;
      plan.preview = preview;
      if (fits(plan)) return true;
      plan.preview = before;
      return false;
    };
    if (collections.length && addCollection(collections[0]!)) addFields(plan.listed[0]!);
    tryPreview({ depth: 1, keys: 16 });
    for (const c of collections.slice(1)) if (!addCollection(c)) break;
    for (const entry of plan.listed.slice(1)) addFields(entry);
    for (const preview of PREVIEWS) if (preview.depth > plan.preview.depth && tryPreview(preview)) break;
    return build(plan);
  }
  throw new Error(`The MCP_RESULT_STORED envelope cannot fit ${budget} bytes`);
}
