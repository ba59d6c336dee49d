// Collection discovery for the MCP_RESULT_STORED envelope, within fixed bounds (DISCOVERY_LIMITS), so
// describing a result costs little whatever its shape (docs/architecture.md, "MCP results").
//
// Model: a breadth-first walk from the root over containers reached through object members. A node is an
// array or a non-empty object (a scalar or `{}` cannot hold a collection, so it is neither a node nor a
// child). Every array visited is a collection; its rows are not walked: they are inspected (at most 512)
// for immediate field names, and arrays inside rows show up as fields of their collection
// (`/data/3/labels` is reachable with session.page or session.get but is not listed on its own).
// Depth is the number of pointer tokens: an array whose path has at most 8 tokens can be found.
// `collections_complete` is false when the walk left a node unvisited (collection, node, depth or child
// bound); `fields_complete` is false when rows, field-count or field-name-length bounds cut the list.
import { formatPointer } from '../json-pointer/index.ts';
import { isRecord, utf8 } from './errors.ts';

export const DISCOVERY_LIMITS = {
  collections: 8,
  nodes: 256,
  depth: 8,
  children: 32,
  rows: 512,
  fields: 32,
  fieldNameBytes: 128,
} as const;

export interface CollectionDescriptor {
  path: string;
  count: number;
  fields: string[];
  fields_complete: boolean;
}

export interface Discovery {
  collections: CollectionDescriptor[];
  collections_complete: boolean;
}

const isNode = (v: unknown): boolean => Array.isArray(v) || (isRecord(v) && hasKey(v));

function hasKey(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

/** Observed immediate field names of the first 512 rows that are objects. */
export function fieldsOf(rows: readonly unknown[]): { fields: string[]; fields_complete: boolean } {
  const fields: string[] = [];
  const seen = new Set<string>();
  let complete = rows.length <= DISCOVERY_LIMITS.rows;
  const inspected = Math.min(rows.length, DISCOVERY_LIMITS.rows);
  for (let i = 0; i < inspected; i++) {
    const row = rows[i];
    if (!isRecord(row)) continue;
    for (const name of Object.keys(row)) {
      if (seen.has(name)) continue;
      seen.add(name);
      if (utf8(name) > DISCOVERY_LIMITS.fieldNameBytes || fields.length === DISCOVERY_LIMITS.fields) complete = false;
      else fields.push(name);
    }
  }
  return { fields, fields_complete: complete };
}

/** Discovery with the exact bounds: 8 collections, 256 traversal nodes, 8 levels, 32 children per node, 512 inspected rows per collection, 32 field names of at most 128 UTF-8 bytes; reaching any bound sets the matching *_complete false; a root array is found at path "". */
export function discoverCollections(value: unknown): Discovery {
  const collections: CollectionDescriptor[] = [];
  let complete = true;
  if (!isNode(value)) return { collections, collections_complete: complete };
  const queue: { node: unknown; tokens: string[] }[] = [{ node: value, tokens: [] }];
  for (let next = 0; next < queue.length; next++) {
    if (next === DISCOVERY_LIMITS.nodes) {
      complete = false;
      break;
    }
    const { node, tokens } = queue[next]!;
    if (Array.isArray(node)) {
      if (collections.length === DISCOVERY_LIMITS.collections) {
        complete = false;
        break;
      }
      collections.push({ path: formatPointer(tokens), count: node.length, ...fieldsOf(node) });
      continue;
    }
    let children = 0;
    for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
      if (!isNode(child)) continue;
      if (tokens.length === DISCOVERY_LIMITS.depth || children === DISCOVERY_LIMITS.children) {
        complete = false;
        break;
      }
      children++;
      queue.push({ node: child, tokens: [...tokens, key] });
    }
  }
  return { collections, collections_complete: complete };
}
