// How search_docs answers are worded and bounded: the 64 KiB answer limit and each text field's
// bound, the call form, the pagination notes, text clipping and the error an answer reports.
import type { DocEntry } from './entries.ts';

export const RESPONSE_LIMIT_BYTES = 64 * 1024;
export const DESCRIPTION_CHARS = 300;
/** Longest summary, path and exact-detail description shown: each field bounded, so answers fit 64 KiB. */
export const SUMMARY_CHARS = 300;
export const PATH_CHARS = 500;
export const EXACT_PATH_CHARS = 2000;
export const EXACT_DESCRIPTION_CHARS = 8000;
/** Characters of required input names a call form lists; any further ones are counted, not listed. */
const CALL_ARGS_CHARS = 500;
/** Characters of child pointers a too-large-section error may list. */
export const CHILDREN_HINT_CHARS = 2000;

export class DocsError extends Error {
  override name = 'DocsError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/**
 * The call form. Required inputs are listed up to CALL_ARGS_CHARS; past that the form says how many
 * more there are and which section lists them, and `shortened` is true.
 */
export function callForm(entry: DocEntry): { call: string; shortened: boolean } {
  if (entry.kind === 'unified') {
    return {
      call: `call("${entry.operationId}", { input, targets: [/* exact step names from the targets section, with their dependencies */], selectors?, pagination?: { <target>: { maxPages } }, idempotencyKey? })`,
      shortened: false,
    };
  }
  const args: string[] = [];
  let length = 0;
  for (const r of entry.required) {
    // A key that is no identifier (`query.token`, src/catalog/types.ts inputKey) is quoted, so the form stays JavaScript.
    const arg = r === 'body' ? 'body: {…}' : /^[A-Za-z_$][\w$]*$/.test(r) ? r : `${JSON.stringify(r)}: …`;
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
export function clip(text: string, max: number, field: string, shortened: string[]): string {
  if (text.length <= max) return text;
  shortened.push(field);
  return truncate(text, max);
}

export function rankedPagination(entry: DocEntry) {
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

export function exactPagination(entry: DocEntry) {
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

export const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
