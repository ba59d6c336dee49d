// search_docs: intent search, exact lookup and browse over the operations an MCP version
// selects. Ranking is MiniSearch (BM25) with field boosts; every answer fits 64 KiB of UTF-8
// JSON, with schema sections included whole or omitted and schema_status saying which.
import MiniSearch from 'minisearch';
import type { Catalog, JsonSchema, OperationSpec, ServiceIndex } from '../catalog/index.ts';
import { formatPointer, getAt, PointerError, parsePointer } from '../json-pointer/index.ts';
import type { UnifiedDefinition } from '../unified/definitions.ts';

export const RESPONSE_LIMIT_BYTES = 64 * 1024;
export const DEFAULT_LIMIT = 3;
export const MAX_LIMIT = 5;
const BROWSE_MAX = 200;
const DESCRIPTION_CHARS = 300;
/** Longest summary, path and exact-detail description shown: each field bounded, so answers fit 64 KiB. */
const SUMMARY_CHARS = 300;
const PATH_CHARS = 500;
const EXACT_DESCRIPTION_CHARS = 8000;
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

const SCHEMA_REF = '#/components/schemas/';

/**
 * Inlines `#/components/schemas/X` references; recursion is cut with a `$comment`. `stack` holds
 * the schemas already entered above `schema`, when it is a subtree of a larger one.
 */
function dereference(schema: unknown, index: ServiceIndex, stack: string[] = []): unknown {
  let nodes = 0;
  const walk = (node: unknown, stack: string[]): unknown => {
    if (++nodes > DEREF_NODE_BUDGET) throw new DerefBudget();
    if (Array.isArray(node)) return node.map((n) => walk(n, stack));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith(SCHEMA_REF)) {
      const name = ref.slice(SCHEMA_REF.length);
      if (stack.includes(name)) return { $comment: `recursive: same shape as ${name}` };
      const target = index.schemas[name];
      return target === undefined ? node : walk(target, [...stack, name]);
    }
    // fromEntries defines each key, `__proto__` included (assigned, it would set the copy's prototype).
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, stack)]));
  };
  return walk(schema, stack);
}

/**
 * Follows `node`'s `$ref` chain as dereference() does, pushing each schema entered onto `stack`.
 * A name already on the stack is where dereference() cuts recursion, so a cyclic chain ends there.
 */
function followRef(node: unknown, index: ServiceIndex, stack: string[]): unknown {
  for (;;) {
    const ref = node && typeof node === 'object' ? (node as { $ref?: unknown }).$ref : undefined;
    if (typeof ref !== 'string' || !ref.startsWith(SCHEMA_REF)) return node;
    const name = ref.slice(SCHEMA_REF.length);
    if (stack.includes(name)) return { $comment: `recursive: same shape as ${name}` };
    if (index.schemas[name] === undefined) return node;
    stack.push(name);
    node = index.schemas[name];
  }
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
    sectionNames: Object.keys(sections),
    section: (name, tokens = []) => getAt(sections[name], tokens, true),
  };
}

function callForm(entry: DocEntry): string {
  if (entry.kind === 'unified') {
    return `call("${entry.operationId}", { input, targets: [/* exact step names from the targets section, with their dependencies */], selectors?, pagination?: { <target>: { maxPages } }, idempotencyKey? })`;
  }
  const args = entry.required.map((r) => (r === 'body' ? 'body: {…}' : r)).join(', ');
  return `call("${entry.operationId}", { ${args}${args ? ' ' : ''}})`.replace('{  }', '{}');
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

function rerank<T extends { id: string; score: number }>(hits: T[], groups: string[][], entry: (id: string) => DocEntry): T[] {
  if (!groups.length) return hits;
  return hits
    .map((hit) => {
      const words = wordsOf(entry(hit.id));
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
      const factor = (prior * (1 + (1.2 * exact + 0.6 * synonym) / groups.length)) / (1 + 0.08 * extra);
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

  private intent(query: string, limit: number, service: string | undefined, callable: (id: string) => boolean) {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new DocsError('ENGINE_INVALID_INPUT', `limit must be an integer from 1 to ${MAX_LIMIT}`);
    const filter = service ? { filter: (r: { id: string }) => this.entries.get(r.id)?.service === service } : {};
    // Every term (or one of its synonyms) must match; fall back to any term when too few do.
    const groups = queryGroups(query);
    const strict = groups.length ? this.search.search({ combineWith: 'AND', queries: groups.map((g) => ({ combineWith: 'OR', queries: g })) }, filter) : [];
    const seen = new Set(strict.map((h) => h.id));
    const looseQuery = [...new Set(tokenize(query))].join(' ');
    const loose = strict.length >= limit ? [] : this.search.search(looseQuery, { ...filter, combineWith: 'OR' }).filter((h) => !seen.has(h.id));
    const hits = rerank([...strict, ...loose].slice(0, 40), groups, (id) => this.entries.get(id)!).slice(0, limit);
    const results = hits.map((hit) => {
      const e = this.entries.get(hit.id)!;
      return {
        operationId: e.operationId,
        kind: e.kind,
        service: e.service,
        summary: truncate(e.summary, SUMMARY_CHARS),
        description: truncate(e.description, DESCRIPTION_CHARS),
        ...(e.method ? { method: e.method, path: truncate(e.path!, PATH_CHARS) } : {}),
        callable: callable(e.operationId),
        call: callForm(e),
        ...(e.kind === 'physical' ? { pagination: rankedPagination(e) } : {}),
        sections: {} as Record<string, unknown>,
        schema_status: { complete: false, included_sections: [] as string[], available_sections: [] as string[] },
      };
    });
    // Inline the input sections of each result while the whole answer stays within the limit. The
    // answer's size is measured once, then grows by what each section adds: `"name":<value>` in
    // sections and `"name"` in included_sections, with their commas, and each result's list of
    // available sections. 1 KiB is left for the fields added later.
    // Results whose bare fields would not fit are not listed (each field is bounded, so this is rare).
    while (results.length > 1 && bytes({ results, query }) > RESPONSE_LIMIT_BYTES - 1024) results.pop();
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
    return {
      query,
      results,
      ...(results.length === 0 ? { hint: 'No operation matched. Retry once with more specific service and action terms; never guess an operation ID.' } : {}),
      next: 'Use exact detail with search_docs({ operationId, section }) for any section listed as missing in schema_status.',
    };
  }

  private exact(args: SearchArgs, callable: (id: string) => boolean) {
    const entry = this.entries.get(args.operationId!);
    if (!entry) throw new DocsError('ENGINE_UNKNOWN_OPERATION', `unknown operationId '${args.operationId}' in this MCP server; search with a query to find operations`);
    const available = entry.sectionNames;
    const base = {
      operationId: entry.operationId,
      kind: entry.kind,
      service: entry.service,
      summary: truncate(entry.summary, SUMMARY_CHARS),
      description: truncate(entry.description, EXACT_DESCRIPTION_CHARS),
      ...(entry.method ? { method: entry.method, path: entry.path } : {}),
      callable: callable(entry.operationId),
      call: callForm(entry),
      ...(entry.kind === 'physical' ? { pagination: exactPagination(entry) } : {}),
    };
    if (args.section === undefined && args.schemaPath !== undefined) throw new DocsError('ENGINE_INVALID_INPUT', 'schemaPath needs a section');
    const wanted = args.section === undefined ? available : [args.section];
    if (args.section !== undefined && !available.includes(args.section)) {
      throw new DocsError('ENGINE_UNKNOWN_SECTION', `operation '${entry.operationId}' has no section '${args.section}'; its sections are: ${available.join(', ')}`);
    }
    const sections: Record<string, unknown> = {};
    const included: string[] = [];
    // A long description is shortened before a requested section is dropped: sections are measured with it short.
    const description = bytes(base.description) > RESPONSE_LIMIT_BYTES / 4 ? truncate(base.description, 1000) : base.description;
    const shell = () => ({ ...base, description, sections, schema_status: { complete: false, included_sections: included, available_sections: available } });
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
      if (bytes({ ...shell(), schema_status: { complete: false, included_sections: included, available_sections: available } }) > RESPONSE_LIMIT_BYTES) {
        delete sections[name];
        included.pop();
        refusedChildren = childrenOf(value);
      }
    }
    const answer = { ...shell(), schema_status: { complete: included.length === wanted.length, included_sections: included, available_sections: available } };
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
    return answer;
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
