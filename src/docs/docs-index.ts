// search_docs: intent search, exact lookup and browse over the operations an MCP version
// selects. Ranking is src/docs/rank.ts; a service the query names filters instead of ranking. Every answer fits 64 KiB of UTF-8 JSON, with schema
// sections included whole or omitted and schema_status saying which, and any text field cut short
// named in `shortened`. Sections are dereferenced: `$ref`s are RFC 6901 pointers into
// components.schemas, and the keywords beside a `$ref` are kept.
import { formatPointer, PointerError, parsePointer } from '../json-pointer/index.ts';
import {
  callForm,
  CHILDREN_HINT_CHARS,
  clip,
  DESCRIPTION_CHARS,
  DocsError,
  EXACT_DESCRIPTION_CHARS,
  EXACT_PATH_CHARS,
  exactPagination,
  PATH_CHARS,
  rankedPagination,
  RESPONSE_LIMIT_BYTES,
  SUMMARY_CHARS,
  truncate,
} from './answers.ts';
import type { AnalysisFiles } from './analysis-files.ts';
import type { DocEntry } from './entries.ts';
import { bytes, childrenOf, sectionBytes, TooLarge } from './sections.ts';
import { Ranker } from './rank.ts';
import { correctSpelling, spellingLexicon, type SpellingLexicon } from './spelling.ts';

export const DEFAULT_LIMIT = 3;
export const MAX_LIMIT = 5;
const BROWSE_MAX = 200;

export interface SearchArgs {
  query?: string | undefined;
  limit?: number | undefined;
  operationId?: string | undefined;
  section?: string | undefined;
  schemaPath?: string | undefined;
  service?: string | undefined;
}

/** What separates words in queries and service names. */
const BREAK_CHARS = String.raw`\s/{}._\-:,()\[\]"'` + '`?!';
const WORD_BREAK = new RegExp(`[${BREAK_CHARS}]+`);
/** A word between them, found with where it is written. */
const WORD = new RegExp(`[^${BREAK_CHARS}]+`, 'g');

/** A search below this share of the query explained offers weak matches, not results. */
const WEAK_COVERAGE = 0.03;

/** An operation ID's group: `github.issues/create` → github.issues; `stripe.GetCustomers` → stripe.GetCustomers's service. */
const groupOf = (id: string) => (id.includes('/') ? id.slice(0, id.indexOf('/')) : id.slice(0, id.indexOf('.')));

export class DocsIndex {
  private readonly entries = new Map<string, DocEntry>();
  private readonly ranker: Ranker;
  private spelling: SpellingLexicon | undefined;
  /**
   * Each service's name as query words ("demo-crm" → demo, crm), longest first; not a service whose
   * name is also one of its own operation groups (a service "contacts" with "contacts/list").
   */
  private readonly serviceTokens: { service: string; tokens: string[] }[];

  /** `files` keeps the operations' analyses on disk across restarts (./analysis-files.ts). */
  constructor(entries: DocEntry[], files?: AnalysisFiles) {
    for (const e of entries) this.entries.set(e.operationId, e);
    this.ranker = Ranker.for(entries, files);
    const terms = (text: string) => text.toLowerCase().split(WORD_BREAK).filter(Boolean).join(' ');
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

  /** Whether the operation is read-only (false when this index does not have it). */
  readOnly(operationId: string): boolean {
    return this.entries.get(operationId)?.readOnly === true;
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
  private namedServices(query: string): { named: string[]; rest: string } {
    // Words with where they are written: the rest keeps the query's own text between them, so an
    // email address, a slug or a key (jane@acme.com, acme/api, PROJ-12) stays one value.
    const spans = [...query.matchAll(WORD)].map((m) => ({ at: m.index, end: m.index + m[0].length }));
    const raw = spans.map(({ at, end }) => query.slice(at, end));
    const lower = raw.map((w) => w.toLowerCase());
    const named = new Set<string>();
    const drop = new Set<number>();
    for (const { service, tokens } of this.serviceTokens) {
      for (let i = 0; i + tokens.length <= lower.length; i++) {
        if (!tokens.every((t, j) => lower[i + j] === t && !drop.has(i + j))) continue;
        // A word of its own, not part of a value or a file name (`.gitlab-ci.yml`, `github.com/acme`),
        // or the start of one of the operation IDs pasted (`github.issues/create`).
        const pasted = () => this.entries.has(query.slice(spans[i]!.at).split(/\s/)[0]!.replace(/[,;:!?)"'`.]+$/, ''));
        const alone = /(?:^|[\s,;:!?()"'`])$/.test(query.slice(0, spans[i]!.at)) && (/^(?:$|[\s,;:!?()"'`]|\.(?:\s|$))/.test(query.slice(spans[i + tokens.length - 1]!.end)) || pasted());
        if (alone) {
          named.add(service);
          tokens.forEach((_, j) => drop.add(i + j));
        }
      }
    }
    if (!named.size || drop.size === raw.length) return { named: [...named], rest: query };
    let rest = '';
    let from = 0;
    spans.forEach(({ at, end }, i) => {
      if (!drop.has(i)) return;
      rest += `${query.slice(from, at)} `;
      from = end;
    });
    return { named: [...named], rest: (rest + query.slice(from)).replace(/\s+/g, ' ').replace(/^[\s,;:.!?-]+/, '').trim() };
  }

  private intent(query: string, limit: number, service: string | undefined, callable: (id: string) => boolean) {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new DocsError('ENGINE_INVALID_INPUT', `limit must be an integer from 1 to ${MAX_LIMIT}`);
    // How people type (contractions, British spellings, typos, numbers said in words) is read as the catalogue writes it, and the answer says what was read (./spelling.ts).
    const spelled = correctSpelling(query, (this.spelling ??= spellingLexicon(this.ranker.uses)));
    const { named, rest } = this.namedServices(spelled.query);
    const inNamed = (e: DocEntry | undefined) => e !== undefined && (named.includes(e.service) || (e.services?.some((s) => named.includes(s)) ?? false));
    // Without a `service` argument, the services the query names are the filter (and the answer says so).
    let byNamed = !service && named.length > 0;
    const filter = service ? (id: string) => this.entries.get(id)?.service === service : byNamed ? (id: string) => inNamed(this.entries.get(id)) : undefined;
    let hits = this.ranker.search(rest, limit, filter);
    // A service named in the query that has no match for the rest: rank the query as written.
    if (!hits.length && byNamed) {
      byNamed = false;
      hits = this.ranker.search(spelled.query, limit);
    }
    // Guesses that explain little of the query by its own words are not presented as answers: each
    // is marked a weak match, and the answer offers the closest resource groups to browse instead.
    const weak = hits.length > 0 && hits[0]!.coverage < WEAK_COVERAGE;
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
        changes_data: e.changesData,
        read_only: e.readOnly,
        destructive: e.destructive,
        pages: e.pagination !== null,
        ...(weak ? { match: 'weak' } : {}),
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
      ...(spelled.corrections.length ? { read_as: spelled.corrections } : {}),
      ...(byNamed ? { service_filter: named } : {}),
      results,
      ...(omitted
        ? {
            omitted_results: omitted,
            hint: `${omitted} result${omitted === 1 ? ' was' : 's were'} left out (the lowest-ranked first) to keep this answer within 64 KiB; a more specific query or a lower limit returns less.`,
          }
        : weak
          ? {
              no_good_match: true,
              closest_groups: this.groupsOf(hits),
              hint: 'No operation matches this request well: the results are weak guesses (match: "weak"), near in meaning only. Check one with search_docs({ operationId }), browse a closest group with search_docs({ query: "<group>" }), or rephrase with the thing to act on; never guess an operation ID.',
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

  /** The resource groups of some hits (an ID's group, `github.issues/…` → issues), with how many operations each holds. */
  private groupsOf(hits: readonly { id: string }[]): { group: string; operations: number }[] {
    const groups = [...new Set(hits.map((h) => groupOf(h.id)))].slice(0, 3);
    return groups.map((group) => ({ group, operations: [...this.entries.keys()].filter((id) => groupOf(id) === group).length }));
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
      read_only: entry.readOnly,
      destructive: entry.destructive,
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
