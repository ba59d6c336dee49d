// search_docs: intent search, exact lookup and browse over the operations an MCP version
// selects. Ranking is MiniSearch (BM25) with field boosts, reranked on the summary; a service the
// query names filters instead of ranking. Every answer fits 64 KiB of UTF-8 JSON, with schema
// sections included whole or omitted and schema_status saying which, and any text field cut short
// named in `shortened`. Sections are dereferenced: `$ref`s are RFC 6901 pointers into
// components.schemas, and the keywords beside a `$ref` are kept.
import MiniSearch from 'minisearch';
import type { Catalog, JsonSchema, OperationSpec, ServiceIndex } from '../catalog/index.ts';
import { ANNOTATIONS, resolveSchemaRef, siblingsOf } from '../catalog/refs.ts';
import { formatPointer, getAt, PointerError, parsePointer } from '../json-pointer/index.ts';
import { servicesOf, type UnifiedDefinition } from '../unified/definitions.ts';

export const RESPONSE_LIMIT_BYTES = 64 * 1024;
export const DEFAULT_LIMIT = 3;
export const MAX_LIMIT = 5;
const BROWSE_MAX = 200;
const DESCRIPTION_CHARS = 300;
/** Longest summary, path and exact-detail description shown: each field bounded, so answers fit 64 KiB. */
const SUMMARY_CHARS = 300;
const PATH_CHARS = 500;
const EXACT_PATH_CHARS = 2000;
const EXACT_DESCRIPTION_CHARS = 8000;
/** Characters of required input names a call form lists; any further ones are counted, not listed. */
const CALL_ARGS_CHARS = 500;
/** Characters of child pointers a too-large-section error may list. */
const CHILDREN_HINT_CHARS = 2000;
/** Dereferencing stops past this many schema nodes; the section is then reported too large. */
const DEREF_NODE_BUDGET = 50_000;

export class DocsError extends Error {
  override name = 'DocsError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** One searchable operation. Unified operations (added by the unified module) share this shape. */
export interface DocEntry {
  operationId: string;
  kind: 'physical' | 'unified';
  service: string;
  summary: string;
  description: string;
  method?: string;
  path?: string;
  tags: string[];
  parameterNames: string[];
  deprecated?: boolean;
  /** Names of the sections this operation has. */
  sectionNames: string[];
  /**
   * One (dereferenced) section, or its subtree at `tokens`, built on demand: undefined when the
   * path does not exist, a TooLarge when it is too large to build.
   */
  section: (name: string, tokens?: readonly string[]) => unknown;
  pagination: OperationSpec['pagination'];
  required: string[];
  /** Unified: the services its steps call (a query naming one of them still finds it). */
  services?: string[];
}

export interface SearchArgs {
  query?: string | undefined;
  limit?: number | undefined;
  operationId?: string | undefined;
  section?: string | undefined;
  schemaPath?: string | undefined;
  service?: string | undefined;
}

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** JSON size of a section value; sections are cached objects, so their size is measured once. */
const sectionSizes = new WeakMap<object, number>();
function sectionBytes(value: unknown): number {
  if (typeof value !== 'object' || value === null) return bytes(value);
  let size = sectionSizes.get(value);
  if (size === undefined) sectionSizes.set(value, (size = bytes(value)));
  return size;
}

/** What cached() keeps for a section too large to build. A marker object only this module holds: a real schema may well have a `tooLarge` key. */
const TOO_LARGE: unknown = Object.freeze({});

/** A section or subtree too large to build, with the keys an agent can follow one level deeper. */
class TooLarge {
  readonly children: string[];
  constructor(children: string[]) {
    this.children = children;
  }
}

class DerefBudget extends Error {}

/**
 * What a `$ref` names (src/catalog/refs.ts: an RFC 6901 pointer into components.schemas, as the
 * import check, the typed packages and the input validator read it). `key` identifies the target
 * for cycle detection; `name` is the component's, or the pointer below components.schemas; undefined
 * when it names nothing (an import refuses one in an input schema and warns of one in a response:
 * shown as written).
 */
function resolveRef(ref: string, index: ServiceIndex): { key: string; name: string; target: unknown } | undefined {
  const found = resolveSchemaRef(ref, index.schemas);
  return found.ok ? { key: found.key, name: found.tokens.length === 1 ? found.tokens[0]! : found.key.slice(1), target: found.target } : undefined;
}

const recursive = (name: string) => ({ $comment: `recursive: same shape as ${name}` });

/**
 * A `$ref` with sibling keywords (OpenAPI 3.1, JSON Schema 2020-12: both apply). Merged into one
 * schema when no constraint keyword is on both sides (the sibling's annotations stand in for the
 * target's), else `allOf` of the two, so no constraint is lost. Decided on the keys alone, so the
 * dereferenced section and a schemaPath walk (followRef) agree on its shape.
 */
function withSiblings(target: unknown, siblings: Record<string, unknown>): unknown {
  if (target && typeof target === 'object' && !Array.isArray(target)) {
    const clash = Object.keys(siblings).some((k) => Object.hasOwn(target, k) && !ANNOTATIONS.has(k) && !k.startsWith('x-'));
    if (!clash) return { ...target, ...siblings };
  }
  return { allOf: [target, siblings] };
}

/**
 * Inlines `#/components/schemas/…` references, keeping the keywords beside each; recursion is cut
 * with a `$comment`. `stack` holds the references already entered above `schema`, when it is a
 * subtree of a larger one.
 */
function dereference(schema: unknown, index: ServiceIndex, stack: string[] = []): unknown {
  let nodes = 0;
  const walk = (node: unknown, stack: string[]): unknown => {
    if (++nodes > DEREF_NODE_BUDGET) throw new DerefBudget();
    if (Array.isArray(node)) return node.map((n) => walk(n, stack));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    const resolved = typeof ref === 'string' ? resolveRef(ref, index) : undefined;
    if (resolved) {
      const target = stack.includes(resolved.key) ? recursive(resolved.name) : walk(resolved.target, [...stack, resolved.key]);
      const siblings = siblingsOf(node);
      return siblings ? withSiblings(target, walk(siblings, stack) as Record<string, unknown>) : target;
    }
    // fromEntries defines each key, `__proto__` included (assigned, it would set the copy's prototype).
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, stack)]));
  };
  return walk(schema, stack);
}

/**
 * `node` as dereference() shows it one level deep: its `$ref` chain followed and merged with the
 * keywords beside each `$ref` as dereference() merges them, pushing each reference entered onto
 * `stack`. A reference already on the stack is where dereference() cuts recursion, so a cyclic
 * chain ends there. Values below the first level are left as they are in the catalog.
 */
function followRef(node: unknown, index: ServiceIndex, stack: string[]): unknown {
  const ref = node && typeof node === 'object' ? (node as { $ref?: unknown }).$ref : undefined;
  const resolved = typeof ref === 'string' ? resolveRef(ref, index) : undefined;
  if (!resolved) return node;
  let target: unknown;
  if (stack.includes(resolved.key)) target = recursive(resolved.name);
  else {
    stack.push(resolved.key);
    target = followRef(resolved.target, index, stack);
  }
  const siblings = siblingsOf(node as object);
  return siblings ? withSiblings(target, siblings) : target;
}

const childrenOf = (node: unknown) => (node && typeof node === 'object' ? Object.keys(node) : []);

/** Dereferenced sections are costly to build and often asked again: keep the most recent ones. */
const sectionCache = new Map<string, unknown>();
const SECTION_CACHE_SIZE = 512;
function cached(key: string, build: () => unknown): unknown {
  if (sectionCache.has(key)) {
    const value = sectionCache.get(key);
    sectionCache.delete(key);
    sectionCache.set(key, value);
    return value;
  }
  let value: unknown;
  try {
    value = build();
  } catch (err) {
    if (!(err instanceof DerefBudget)) throw err;
    value = TOO_LARGE;
  }
  sectionCache.set(key, value);
  if (sectionCache.size > SECTION_CACHE_SIZE) sectionCache.delete(sectionCache.keys().next().value!);
  return value;
}

function physicalEntry(op: OperationSpec, index: ServiceIndex): DocEntry {
  const names = [
    ...(op.parameters.length ? ['parameters'] : []),
    ...(op.body ? ['request'] : []),
    ...Object.entries(op.responses)
      .filter(([, schema]) => schema !== null)
      .map(([status]) => `response:${status}`),
  ];
  /** A section's shape, with each of its schemas passed through `schema`. */
  const shape = (name: string, schema: (s: JsonSchema) => unknown): unknown => {
    if (name === 'parameters') {
      return Object.fromEntries(
        op.parameters.map((p) => [
          p.name,
          { in: p.in, required: p.required, ...(p.description ? { description: p.description } : {}), schema: schema(p.schema), ...(p.slashPreserving ? { slashPreserving: true } : {}) },
        ]),
      );
    }
    if (name === 'request') return { contentType: op.body!.contentType, required: op.body!.required, inputKey: 'body', schema: schema(op.body!.schema) };
    return schema(op.responses[name.slice('response:'.length)]!);
  };
  const build = (name: string) => shape(name, (s) => dereference(s, index));
  const key = (name: string) => `${index.service}@${index.version}/${op.id}/${name}`;
  /**
   * A subtree of a section too large to build. The pointer is walked over the section's catalog
   * form, following a $ref wherever the walk stands on one, so it reads as it would in the
   * dereferenced section; only the subtree it reaches is dereferenced.
   */
  const subtree = (name: string, tokens: readonly string[]): unknown => {
    const stack: string[] = [];
    let node = followRef(shape(name, (s) => s), index, stack);
    for (const token of tokens) {
      node = getAt(node, [token], true);
      if (node === undefined) return undefined;
      node = followRef(node, index, stack);
    }
    // The empty path is the whole section, which has already failed to build.
    if (!tokens.length) return new TooLarge(childrenOf(node));
    const value = cached(`${key(name)}#${formatPointer(tokens)}`, () => dereference(node, index, stack));
    return value === TOO_LARGE ? new TooLarge(childrenOf(node)) : value;
  };
  return {
    operationId: op.id,
    kind: 'physical',
    service: op.service,
    summary: op.summary,
    description: op.description,
    method: op.method,
    path: op.path,
    tags: op.tags,
    parameterNames: op.parameters.map((p) => p.name),
    deprecated: op.deprecated,
    pagination: op.pagination,
    required: [...op.parameters.filter((p) => p.required).map((p) => p.name), ...(op.body?.required ? ['body'] : [])],
    sectionNames: names,
    section: (name, tokens = []) => {
      if (!names.includes(name)) return undefined;
      const whole = cached(key(name), () => build(name));
      return whole === TOO_LARGE ? subtree(name, tokens) : getAt(whole, tokens, true);
    },
  };
}

/** A Unified operation as a search entry: sections input, targets and output. */
export function unifiedEntry(def: UnifiedDefinition, pagination: (operation: string) => OperationSpec['pagination']): DocEntry {
  const targets = Object.fromEntries(
    Object.entries(def.steps).map(([name, step]) => {
      const policy = pagination(step.operation);
      return [
        name,
        {
          operation: step.operation,
          dependsOn: step.dependsOn,
          pagination: policy ? { supported: true, caller_bound_supported: policy.callerBound, engine_max_pages: policy.engineMaxPages } : { supported: false },
        },
      ];
    }),
  );
  const sections: Record<string, unknown> = { input: def.input, targets, output: def.output };
  return {
    operationId: def.name,
    kind: 'unified',
    service: 'unified',
    summary: def.summary,
    description: def.description,
    tags: [def.name.split('.')[1]!],
    parameterNames: Object.keys((def.input as { properties?: object }).properties ?? {}),
    pagination: null,
    required: ['input', 'targets'],
    services: servicesOf(def),
    sectionNames: Object.keys(sections),
    section: (name, tokens = []) => getAt(sections[name], tokens, true),
  };
}

/**
 * The call form. Required inputs are listed up to CALL_ARGS_CHARS; past that the form says how many
 * more there are and which section lists them, and `shortened` is true.
 */
function callForm(entry: DocEntry): { call: string; shortened: boolean } {
  if (entry.kind === 'unified') {
    return {
      call: `call("${entry.operationId}", { input, targets: [/* exact step names from the targets section, with their dependencies */], selectors?, pagination?: { <target>: { maxPages } }, idempotencyKey? })`,
      shortened: false,
    };
  }
  const args: string[] = [];
  let length = 0;
  for (const r of entry.required) {
    const arg = r === 'body' ? 'body: {…}' : r;
    if (length + arg.length > CALL_ARGS_CHARS) break;
    args.push(arg);
    length += arg.length + 2;
  }
  const rest = entry.required.slice(args.length);
  if (rest.length) {
    const params = rest.filter((r) => r !== 'body').length;
    const more = [
      ...(params ? [`${params} more required parameter${params === 1 ? '' : 's'} (see the parameters section)`] : []),
      ...(rest.includes('body') ? ['the required body (see the request section)'] : []),
    ];
    args.push(`/* not listed here: ${more.join(' and ')} */`);
  }
  return { call: `call("${entry.operationId}", ${args.length ? `{ ${args.join(', ')} }` : '{}'})`, shortened: rest.length > 0 };
}

/** `text` cut to `max` characters, adding `field` to `shortened` when it was cut. */
function clip(text: string, max: number, field: string, shortened: string[]): string {
  if (text.length <= max) return text;
  shortened.push(field);
  return truncate(text, max);
}

function rankedPagination(entry: DocEntry) {
  if (entry.kind === 'unified') return undefined;
  if (!entry.pagination) {
    return { supported: false, usage: `Use call("${entry.operationId}", params): the Engine makes one provider request and does not page this operation.` };
  }
  return {
    supported: true,
    exact_lookup_required: true,
    usage: `call("${entry.operationId}", params) pages to the provider's end and returns one aggregate. To bound pages, first look up search_docs({ operationId: "${entry.operationId}" }).`,
  };
}

function exactPagination(entry: DocEntry) {
  if (entry.kind === 'unified') return undefined;
  const p = entry.pagination;
  if (!p) return { supported: false, caller_bound_supported: false, usage: `Use call("${entry.operationId}", params): one provider request, no paging.` };
  if (!p.callerBound) {
    return {
      supported: true,
      caller_bound_supported: false,
      engine_max_pages: p.engineMaxPages,
      usage: `Use call("${entry.operationId}", params): the Engine pages to the provider's end (at most ${p.engineMaxPages} pages, else ENGINE_PAGINATION_LIMIT) and returns one aggregate. A caller bound is not accepted.`,
    };
  }
  return {
    supported: true,
    caller_bound_supported: true,
    engine_max_pages: p.engineMaxPages,
    usage:
      `call("${entry.operationId}", params) pages to the provider's end (at most ${p.engineMaxPages} pages, else ENGINE_PAGINATION_LIMIT) and returns one aggregate; ` +
      `call("${entry.operationId}", params, { pagination: { maxPages: N } }) with an integer 1 ≤ N < ${p.engineMaxPages} reads at most N pages and keeps the provider's continuation.`,
  };
}

const STOP_WORDS = new Set(['a', 'an', 'the', 'of', 'in', 'on', 'to', 'for', 'from', 'with', 'by', 'and', 'or', 'my', 'me', 'i', 'its', 'their', 'this', 'that', 'into', 'new', 'single', 'all', 'some', 'using', 'via']);

/** Lower-case, drop stop words, and fold plurals so "repositories" meets "repository". */
function normalizeTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (STOP_WORDS.has(t)) return null;
  if (t.length > 4 && t.endsWith('ies')) return `${t.slice(0, -3)}y`;
  if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') && !t.endsWith('us')) return t.slice(0, -1);
  return t;
}

/** Action words agents use for the same outcome. */
const SYNONYMS: string[][] = [
  ['create', 'open', 'add', 'make', 'publish', 'post', 'start', 'submit'],
  ['delete', 'remove', 'destroy', 'drop'],
  ['get', 'fetch', 'retrieve', 'read', 'show', 'view', 'lookup'],
  ['update', 'edit', 'modify', 'change', 'set', 'rename'],
  ['list', 'enumerate', 'browse'],
  ['repository', 'repo'],
  ['organization', 'org'],
  ['fork', 'copy'],
];

/** What separates words in queries and summaries. */
const WORD_BREAK = /[\s/{}._\-:,()\[\]"'`?!]+/;

/** The query's terms, each once (a repeated term would cost a fuzzy look-up per repeat and rank nothing higher). */
function queryGroups(query: string): string[][] {
  const groups = new Map<string, string[]>();
  for (const raw of query.split(WORD_BREAK)) {
    const term = raw && normalizeTerm(raw);
    if (!term) continue;
    const group = SYNONYMS.find((g) => g.includes(term)) ?? [term];
    groups.set(group[0]!, group);
  }
  return [...groups.values()];
}

const summaryTerms = (summary: string) =>
  summary
    .split(WORD_BREAK)
    .map((w) => w && normalizeTerm(w))
    .filter((w): w is string => Boolean(w));

/**
 * BM25 over many fields favours long operation IDs that repeat query words. A summary that
 * says exactly what was asked ("Create an issue") is the better answer, so reward summary
 * coverage of the query and penalise summaries with many unrelated words.
 */
/** An entry's summary as search terms, computed once per entry. */
const summaryWords = new WeakMap<DocEntry, string[]>();
function wordsOf(e: DocEntry): string[] {
  let words = summaryWords.get(e);
  if (!words) summaryWords.set(e, (words = summaryTerms(e.summary)));
  return words;
}

function rerank<T extends { id: string; score: number }>(hits: T[], groups: string[][], entry: (id: string) => DocEntry, ignored: ReadonlySet<string>): T[] {
  if (!groups.length) return hits;
  return hits
    .map((hit) => {
      // Service names taken out of the query are left out of the summary too.
      const words = ignored.size ? wordsOf(entry(hit.id)).filter((w) => !ignored.has(w)) : wordsOf(entry(hit.id));
      let exact = 0;
      let synonym = 0;
      for (const group of groups) {
        if (words.includes(group[0]!)) exact++;
        else if (words.some((w) => group.includes(w))) synonym++;
      }
      const extra = Math.max(0, words.length - groups.length);
      const e = entry(hit.id);
      // A Unified operation that covers the whole outcome is preferred over its physical parts;
      // deprecated operations sink. (Applied here, to at most 40 hits, not per matching document.)
      const prior = e.deprecated ? 0.5 : e.kind === 'unified' ? 1.5 : 1;
      // A summary that says exactly what was asked, word for word and nothing more, is the answer
      // even when BM25 prefers longer IDs that repeat the query's words ("Get an organization").
      // A Unified operation whose summary has every word of an outcome asked (an action and what it
      // acts on: two words or more) covers that outcome as well, so it keeps its lead over the
      // physical operation it is built on ("Create a deal for a contact").
      const whole = exact === groups.length && (extra === 0 || (e.kind === 'unified' && groups.length > 1)) ? 1.5 : 1;
      const factor = (whole * prior * (1 + (1.2 * exact + 0.6 * synonym) / groups.length)) / (1 + 0.08 * extra);
      return { hit, score: hit.score * factor };
    })
    .sort((a, b) => b.score - a.score)
    .map((x) => x.hit);
}

/** Index words: split like query words, and at camelCase humps. */
const INDEX_WORD_BREAK = new RegExp(`${WORD_BREAK.source}|(?<=[a-z])(?=[A-Z])`);
const tokenize = (text: string): string[] => text.split(INDEX_WORD_BREAK).filter(Boolean);

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export class DocsIndex {
  private readonly entries = new Map<string, DocEntry>();
  private readonly search: MiniSearch<{ id: string }>;
  /**
   * Each service's name as query words ("demo-crm" → demo, crm), longest first; not a service whose
   * name is also one of its own operation groups (a service "contacts" with "contacts/list").
   */
  private readonly serviceTokens: { service: string; tokens: string[] }[];

  constructor(entries: DocEntry[]) {
    this.search = new MiniSearch({
      idField: 'id',
      fields: ['operationId', 'summary', 'description', 'path', 'tags', 'params', 'words'],
      storeFields: [],
      tokenize,
      processTerm: normalizeTerm,
      searchOptions: {
        boost: { summary: 4, words: 2, operationId: 1, tags: 1.5, path: 1, params: 0.8, description: 0.4 },
        prefix: (term) => term.length > 4,
        fuzzy: (term) => (term.length > 6 ? 0.15 : false),
      },
    });
    const docs = [];
    for (const e of entries) {
      this.entries.set(e.operationId, e);
      docs.push({
        id: e.operationId,
        operationId: e.operationId,
        // The action words of an ID ("issues/create" → "issues create") rank like a summary.
        words: e.operationId.slice(e.operationId.indexOf('.') + 1),
        summary: e.summary,
        description: truncate(e.description, 2000),
        path: e.path ?? '',
        tags: e.tags.join(' '),
        params: e.parameterNames.join(' '),
      });
    }
    this.search.addAll(docs);
    const terms = (text: string) => text.split(WORD_BREAK).map((w) => w && normalizeTerm(w)).filter(Boolean).join(' ');
    const groups = new Set(entries.map((e) => `${e.service} ${terms(e.operationId.slice(e.operationId.indexOf('.') + 1).split(/[./]/)[0]!)}`));
    this.serviceTokens = [...new Set(entries.map((e) => e.service))]
      .filter((service) => !groups.has(`${service} ${terms(service)}`))
      .map((service) => ({ service, tokens: service.toLowerCase().split(WORD_BREAK).filter(Boolean) }))
      .filter(({ tokens }) => tokens.length > 0)
      .sort((a, b) => b.tokens.length - a.tokens.length);
  }

  get size() {
    return this.entries.size;
  }

  /** Runs one search_docs request; `callable` says whether the token may call an operation. */
  run(args: SearchArgs, callable: (operationId: string) => boolean): Record<string, unknown> {
    if (args.operationId !== undefined) return this.exact(args, callable);
    if (args.section !== undefined || args.schemaPath !== undefined) {
      throw new DocsError('ENGINE_INVALID_INPUT', 'section and schemaPath need an exact operationId');
    }
    if (args.query === undefined || args.query.trim() === '') return this.browse(args.service, callable);
    return this.intent(args.query, args.limit ?? DEFAULT_LIMIT, args.service, callable);
  }

  /**
   * Service names the query names ("create a GitHub issue", a pasted "github.issues/create"): they
   * say where, not what, so they are taken out of the ranked query (`rest`). A query of service
   * names only is left as it is. A service name that is also one of its own operation groups (a
   * service "contacts" with "contacts/list") may say what rather than where: it is left in the query
   * and filters nothing.
   */
  private namedServices(query: string): { named: string[]; rest: string; ignored: Set<string> } {
    const raw = query.split(WORD_BREAK).filter(Boolean);
    const lower = raw.map((w) => w.toLowerCase());
    const named = new Set<string>();
    const drop = new Set<number>();
    for (const { service, tokens } of this.serviceTokens) {
      for (let i = 0; i + tokens.length <= lower.length; i++) {
        if (tokens.every((t, j) => lower[i + j] === t && !drop.has(i + j))) {
          named.add(service);
          tokens.forEach((_, j) => drop.add(i + j));
        }
      }
    }
    if (!named.size || drop.size === raw.length) return { named: [...named], rest: query, ignored: new Set() };
    const ignored = new Set([...drop].map((i) => normalizeTerm(raw[i]!)).filter((t): t is string => Boolean(t)));
    return { named: [...named], rest: raw.filter((_, i) => !drop.has(i)).join(' '), ignored };
  }

  private intent(query: string, limit: number, service: string | undefined, callable: (id: string) => boolean) {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new DocsError('ENGINE_INVALID_INPUT', `limit must be an integer from 1 to ${MAX_LIMIT}`);
    const { named, rest, ignored } = this.namedServices(query);
    const inNamed = (e: DocEntry | undefined) => e !== undefined && (named.includes(e.service) || (e.services?.some((s) => named.includes(s)) ?? false));
    // Without a `service` argument, the services the query names are the filter (and the answer says so).
    let byNamed = !service && named.length > 0;
    const filter = service
      ? { filter: (r: { id: string }) => this.entries.get(r.id)?.service === service }
      : byNamed
        ? { filter: (r: { id: string }) => inNamed(this.entries.get(r.id)) }
        : {};
    let hits = this.rank(rest, limit, filter, ignored);
    // A service named in the query that has no match for the rest: rank the query as written.
    if (!hits.length && byNamed) {
      byNamed = false;
      hits = this.rank(query, limit, {}, new Set());
    }
    const results = hits.map((hit) => {
      const e = this.entries.get(hit.id)!;
      const shortened: string[] = [];
      const summary = clip(e.summary, SUMMARY_CHARS, 'summary', shortened);
      const description = clip(e.description, DESCRIPTION_CHARS, 'description', shortened);
      const path = e.method ? clip(e.path!, PATH_CHARS, 'path', shortened) : undefined;
      const call = callForm(e);
      if (call.shortened) shortened.push('call');
      return {
        operationId: e.operationId,
        kind: e.kind,
        service: e.service,
        summary,
        description,
        ...(e.method ? { method: e.method, path } : {}),
        callable: callable(e.operationId),
        call: call.call,
        // The fields cut short, named: a cut is never silent (exact detail shows more of each).
        ...(shortened.length ? { shortened } : {}),
        ...(e.kind === 'physical' ? { pagination: rankedPagination(e) } : {}),
        sections: {} as Record<string, unknown>,
        schema_status: { complete: false, included_sections: [] as string[], available_sections: [] as string[] },
      };
    });
    // Inline the input sections of each result while the whole answer stays within the limit. The
    // answer's size is measured once, then grows by what each section adds: `"name":<value>` in
    // sections and `"name"` in included_sections, with their commas, and each result's list of
    // available sections. 1 KiB is left for the fields added later.
    // Results whose bare fields would not fit are left out and counted (each field is bounded, so
    // this takes operation IDs of many kilobytes).
    let omitted = 0;
    while (results.length && bytes({ results, query }) > RESPONSE_LIMIT_BYTES - 1024) (results.pop(), omitted++);
    let total = bytes({ results, query });
    for (const result of results) {
      const entry = this.entries.get(result.operationId)!;
      result.schema_status.available_sections = entry.sectionNames;
      total += bytes(entry.sectionNames) - 2;
      for (const name of ['parameters', 'request', 'input', 'targets']) {
        if (!entry.sectionNames.includes(name)) continue;
        const value = entry.section(name);
        if (value instanceof TooLarge) continue;
        const quoted = Buffer.byteLength(JSON.stringify(name));
        const first = result.schema_status.included_sections.length === 0 ? 0 : 1;
        const added = quoted + 1 + sectionBytes(value) + first + quoted + first;
        if (total + added > RESPONSE_LIMIT_BYTES - 1024) continue;
        result.sections[name] = value;
        result.schema_status.included_sections.push(name);
        total += added;
      }
      result.schema_status.complete = result.schema_status.included_sections.length === result.schema_status.available_sections.length;
    }
    const answer = () => ({
      query,
      ...(byNamed ? { service_filter: named } : {}),
      results,
      ...(omitted
        ? {
            omitted_results: omitted,
            hint: `${omitted} result${omitted === 1 ? ' was' : 's were'} left out (the lowest-ranked first) to keep this answer within 64 KiB; a more specific query or a lower limit returns less.`,
          }
        : results.length === 0
          ? { hint: 'No operation matched. Retry once with more specific service and action terms; never guess an operation ID.' }
          : {}),
      next: 'Use exact detail with search_docs({ operationId, section }) for any section listed as missing in schema_status.',
    });
    // The final guard: the accounting above keeps 1 KiB for the fields after the results, and this
    // checks it. Over the limit, sections go first (last result first; schema_status says so), then results.
    let out = answer();
    for (let size = bytes(out); size > RESPONSE_LIMIT_BYTES; size = bytes((out = answer()))) {
      const withSection = results.findLast((r) => r.schema_status.included_sections.length);
      if (withSection) {
        delete withSection.sections[withSection.schema_status.included_sections.pop()!];
        withSection.schema_status.complete = false;
      } else (results.pop(), omitted++);
    }
    return out;
  }

  /** The hits of an intent query, reranked, best first. */
  private rank(query: string, limit: number, filter: { filter?: (r: { id: string }) => boolean }, ignored: ReadonlySet<string>) {
    // Every term (or one of its synonyms) must match; fall back to any term when too few do.
    const groups = queryGroups(query);
    const strict = groups.length ? this.search.search({ combineWith: 'AND', queries: groups.map((g) => ({ combineWith: 'OR', queries: g })) }, filter) : [];
    const seen = new Set(strict.map((h) => h.id));
    const looseQuery = [...new Set(tokenize(query))].join(' ');
    const loose = strict.length >= limit ? [] : this.search.search(looseQuery, { ...filter, combineWith: 'OR' }).filter((h) => !seen.has(h.id));
    return rerank([...strict, ...loose].slice(0, 40), groups, (id) => this.entries.get(id)!, ignored).slice(0, limit);
  }

  private exact(args: SearchArgs, callable: (id: string) => boolean) {
    const entry = this.entries.get(args.operationId!);
    if (!entry) throw new DocsError('ENGINE_UNKNOWN_OPERATION', `unknown operationId '${args.operationId}' in this MCP server; search with a query to find operations`);
    const available = entry.sectionNames;
    // The fields cut short, named in the answer: nothing is cut silently.
    const shortened: string[] = [];
    const call = callForm(entry);
    const base = {
      operationId: entry.operationId,
      kind: entry.kind,
      service: entry.service,
      summary: clip(entry.summary, SUMMARY_CHARS, 'summary', shortened),
      description: clip(entry.description, EXACT_DESCRIPTION_CHARS, 'description', shortened),
      ...(entry.method ? { method: entry.method, path: clip(entry.path!, EXACT_PATH_CHARS, 'path', shortened) } : {}),
      callable: callable(entry.operationId),
      call: call.call,
      shortened,
      ...(entry.kind === 'physical' ? { pagination: exactPagination(entry) } : {}),
    };
    if (call.shortened) shortened.push('call');
    if (args.section === undefined && args.schemaPath !== undefined) throw new DocsError('ENGINE_INVALID_INPUT', 'schemaPath needs a section');
    const wanted = args.section === undefined ? available : [args.section];
    if (args.section !== undefined && !available.includes(args.section)) {
      throw new DocsError('ENGINE_UNKNOWN_SECTION', `operation '${entry.operationId}' has no section '${args.section}'; its sections are: ${available.join(', ')}`);
    }
    const sections: Record<string, unknown> = {};
    const included: string[] = [];
    // A long description is shortened before a requested section is dropped: sections are measured with it short.
    if (bytes(base.description) > RESPONSE_LIMIT_BYTES / 4) {
      base.description = truncate(base.description, 1000);
      if (!shortened.includes('description')) shortened.push('description');
    }
    const shell = () => {
      const { shortened: cut, ...fields } = base;
      return { ...fields, ...(cut.length ? { shortened: cut } : {}), sections, schema_status: { complete: false, included_sections: included, available_sections: available } };
    };
    let tokens: string[] = [];
    try {
      if (args.schemaPath !== undefined) tokens = parsePointer(args.schemaPath);
    } catch (err) {
      throw new DocsError('ENGINE_INVALID_INPUT', `schemaPath: ${(err as PointerError).message}`);
    }
    // The keys of the last value left out, for the hint when a requested section is refused.
    let refusedChildren: string[] = [];
    for (const name of wanted) {
      const value = entry.section(name, tokens);
      if (value === undefined && args.schemaPath !== undefined) throw new DocsError('ENGINE_UNKNOWN_SCHEMA_PATH', `schemaPath '${args.schemaPath}' does not exist in section '${name}'`);
      if (value instanceof TooLarge) {
        refusedChildren = value.children;
        continue;
      }
      sections[name] = value;
      included.push(name);
      // Measured with `complete: false`, the longer of the two spellings the answer may end with.
      if (bytes(shell()) > RESPONSE_LIMIT_BYTES) {
        delete sections[name];
        included.pop();
        refusedChildren = childrenOf(value);
      }
    }
    const answer = () => ({ ...shell(), schema_status: { complete: included.length === wanted.length, included_sections: included, available_sections: available } });
    if (args.section !== undefined && !included.length) {
      // The hint names up to 50 children, each clipped, within CHILDREN_HINT_CHARS: the error stays small.
      const shown: string[] = [];
      let length = 0;
      for (const key of refusedChildren.slice(0, 50)) {
        const pointer = formatPointer([truncate(key, 100)]);
        if (length + pointer.length > CHILDREN_HINT_CHARS) break;
        shown.push(pointer);
        length += pointer.length + 2;
      }
      const more = refusedChildren.length - shown.length;
      throw new DocsError(
        'ENGINE_SECTION_TOO_LARGE',
        `section '${args.section}'${args.schemaPath ? ` at '${truncate(args.schemaPath, 200)}'` : ''} is too large to return (over 64 KiB, or too many nested schemas to expand); request a smaller subtree with schemaPath (children: ${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''})`,
      );
    }
    // The final guard. With a section included, the answer has been measured above (spelled with
    // `complete: false`, never shorter). Without one, the fields alone are measured; they are each
    // bounded, and cut further (and named in `shortened`) should they still not fit.
    if (!included.length) {
      const fits = () => bytes(answer()) <= RESPONSE_LIMIT_BYTES;
      let ok = fits();
      for (const [field, max] of [['description', 200], ['path', 200], ['summary', 100]] as const) {
        if (ok) break;
        const text = base[field];
        if (text === undefined || text.length <= max) continue;
        base[field] = truncate(text, max);
        if (!shortened.includes(field)) shortened.push(field);
        ok = fits();
      }
      if (!ok) {
        throw new DocsError('ENGINE_RESPONSE_TOO_LARGE', `the detail of '${truncate(entry.operationId, 200)}' does not fit 64 KiB even with its text fields shortened`);
      }
    }
    return answer();
  }

  private browse(service: string | undefined, callable: (id: string) => boolean) {
    const all = [...this.entries.values()].filter((e) => !service || e.service === service).sort((a, b) => (a.operationId < b.operationId ? -1 : 1));
    const operations: { operationId: string; summary: string; callable: boolean }[] = [];
    // A running byte count: each entry adds its own JSON plus a comma, so the list is serialised once.
    let size = bytes({ operations: [] });
    for (const e of all.slice(0, BROWSE_MAX)) {
      const entry = { operationId: e.operationId, summary: truncate(e.summary, 120), callable: callable(e.operationId) };
      const added = bytes(entry) + (operations.length ? 1 : 0);
      if (size + added > RESPONSE_LIMIT_BYTES - 1024) break;
      size += added;
      operations.push(entry);
    }
    return {
      operations,
      total: all.length,
      truncated: operations.length < all.length,
      ...(operations.length < all.length ? { hint: 'Narrow with a query or a service filter.' } : {}),
    };
  }
}

/** Builds the docs index of the operations a version selects (physical and Unified). */
export function buildDocsIndex(
  catalog: Catalog,
  services: ReadonlyMap<string, string>,
  operationIds: readonly string[],
  unified: readonly UnifiedDefinition[] = [],
): DocsIndex {
  const entries: DocEntry[] = [];
  const pagination = (operation: string) => {
    const service = operation.slice(0, operation.indexOf('.'));
    const version = services.get(service);
    return (version && catalog.operation(service, version, operation)?.pagination) || null;
  };
  for (const def of unified) if (operationIds.includes(def.name)) entries.push(unifiedEntry(def, pagination));
  for (const id of operationIds) {
    const service = id.slice(0, id.indexOf('.'));
    const version = services.get(service);
    const index = version ? catalog.get(service, version) : undefined;
    const op = version ? catalog.operation(service, version, id) : undefined;
    if (index && op) entries.push(physicalEntry(op, index));
  }
  return new DocsIndex(entries);
}
