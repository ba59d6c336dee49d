// Paging through a provider's answer: the caller's bound checked, the next page found (cursor,
// page, offset, a Link header or a URL in the body), the items joined, and where a bounded traversal stopped.
import type { OperationSpec, PaginationPolicy, ServiceIndex } from '../catalog/index.ts';
import { inputKey } from '../catalog/types.ts';
import { EngineError, failure, success } from '../envelope/index.ts';
import { getAt, setAt } from '../json-pointer/index.ts';
import type { DispatchLimits, Dispatcher } from './dispatch.ts';
import type { ProviderResponse } from './provider-answer.ts';
import { buildRequest, renewedRequest, secretForms, withQueryCredential, type ProviderRequest, type RequestTarget } from './request.ts';
import { answeredError, exactParse, providerFailure, RawJson, retryDetails, sha256 } from './outcomes.ts';
import { attemptsDurationMs, IDEMPOTENT_METHODS, sendWithRetries, type Attempt, type RetriedResponse, type RetryPlan } from './retry.ts';
import type { CallRequest, Continuation, Outcome } from './types.ts';

/** Pagination rule 5: an invalid bound is refused before anything reaches the provider. */
export function checkPagination(op: OperationSpec, pagination: CallRequest['pagination']): void {
  if (pagination === undefined) return;
  const policy = op.pagination;
  const max = (pagination as { maxPages?: unknown } | null)?.maxPages;
  const refuse = (message: string) =>
    new EngineError('ENGINE_PAGINATION_INVALID', message, {
      details: { field: 'pagination.maxPages', supported: Boolean(policy), caller_bound_supported: policy?.callerBound ?? false, ...(policy ? { engine_max_pages: policy.engineMaxPages } : {}) },
    });
  if (typeof pagination !== 'object' || pagination === null || Array.isArray(pagination)) throw refuse('pagination must be an object { maxPages: N }');
  const extra = Object.keys(pagination).filter((k) => k !== 'maxPages');
  if (extra.length) throw refuse(`pagination has unknown property '${extra[0]}'; only maxPages is accepted`);
  if (!policy) throw refuse(`operation '${op.id}' does not support pagination; call it without a pagination bound`);
  if (!policy.callerBound) throw refuse(`operation '${op.id}' does not accept a caller bound; call it without one and the Engine pages to the end`);
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) throw refuse('pagination.maxPages is required and must be a positive integer');
  if (max >= policy.engineMaxPages) {
    throw refuse(`pagination.maxPages must be strictly lower than the Engine limit of ${policy.engineMaxPages} for '${op.id}'`);
  }
}

/**
 * The `rel="next"` target of a Link header (RFC 8288). Provider text: parsed in one pass with
 * indexOf and split, never a backtracking regex (one such took a second per 16 KiB header).
 */
function nextLink(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return undefined;
  let at = 0;
  for (;;) {
    const open = value.indexOf('<', at);
    const close = open < 0 ? -1 : value.indexOf('>', open + 1);
    if (close < 0) return undefined;
    // The link's parameters run to the next comma outside a quoted string.
    let end = close + 1;
    for (let quoted = false; end < value.length && (quoted || value[end] !== ','); end++) if (value[end] === '"') quoted = !quoted;
    if (relIsNext(value.slice(close + 1, end))) return value.slice(open + 1, close);
    at = end + 1;
  }
}

/** Whether the first `rel` parameter of `;a=b;rel="x next"` lists `next` among its space-separated types. */
function relIsNext(params: string): boolean {
  for (const param of params.split(';')) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'rel') continue;
    let types = param.slice(eq + 1).trim();
    if (types.length >= 2 && types.startsWith('"') && types.endsWith('"')) types = types.slice(1, -1);
    return types.split(/[ \t]+/).some((type) => type.toLowerCase() === 'next');
  }
  return false;
}

/**
 * Where a Link-header traversal stopped by a caller bound reads on: the operation's declared query
 * parameters its next link changes (GitHub's `page`), typed as declared; `{ more: true }` alone when
 * the link changes none (a next link that is an opaque URL cannot be passed through the Engine).
 */
function linkContinuation(op: OperationSpec, input: Record<string, unknown>, nextUrl: string): Continuation {
  const query = new URL(nextUrl).searchParams;
  const changed: Record<string, unknown> = {};
  for (const p of op.parameters) {
    if (p.in !== 'query') continue;
    const value = query.get(p.name);
    if (value === null || String(input[inputKey(p)] ?? '') === value) continue;
    const type = (p.schema as { type?: unknown }).type;
    changed[inputKey(p)] = (type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return Object.keys(changed).length ? { more: true, input: changed } : { more: true };
}

/**
 * Whether an offset or page style page says it is the last: its `last` flag is true (Jira's
 * isLast), or the next offset reaches its `total` (Jira's count of all items). Without them, or
 * when they are not a boolean and a number, the traversal ends on an empty page, one request later.
 */
function lastPage(policy: PaginationPolicy, data: unknown, pageInput: Record<string, unknown>, count: number): boolean {
  if (policy.last !== undefined && getAt(data, policy.last) === true) return true;
  if (policy.total === undefined) return false;
  const total = getAt(data, policy.total);
  return typeof total === 'number' && Number(pageInput[policy.pageInput!] ?? 0) + count >= total;
}

/** Page style with a page count (`pages`): whether the page just read is the last one, so none past it is asked for. */
function lastNumberedPage(policy: PaginationPolicy, data: unknown, pageInput: Record<string, unknown>): boolean {
  if (policy.style !== 'page' || policy.pages === undefined) return false;
  const count = getAt(data, policy.pages);
  return typeof count === 'number' && Number(pageInput[policy.pageInput!] ?? 1) >= count;
}

/** A page number or offset as the operation declares its parameter (Slack's `page` is a string), so a continuation passes its validation. */
function asDeclared(op: OperationSpec, key: string, value: number): number | string {
  const type = (op.parameters.find((p) => inputKey(p) === key)?.schema as { type?: unknown } | undefined)?.type;
  return type === 'string' || (Array.isArray(type) && type.includes('string') && !type.includes('integer') && !type.includes('number')) ? String(value) : value;
}

/** Styles whose next page is a URL the provider gives (a Link header, or a URL in the body), followed on the same origin. */
const followsLinks = (policy: PaginationPolicy) => policy.style === 'link_header' || policy.style === 'next_url';

/** One traversal: the first request built, and what every later page is sent with. */
export interface Traversal {
  dispatcher: Dispatcher;
  index: ServiceIndex;
  op: OperationSpec;
  policy: PaginationPolicy;
  input: Record<string, unknown>;
  first: ProviderRequest;
  target: RequestTarget;
  limits: DispatchLimits;
  /** The caller's bound (`pagination.maxPages`), when it gave one. */
  bound: number | undefined;
  /** OAuth only: a newer access token after the provider refused this one. */
  renew?: (() => Promise<string>) | undefined;
  /** How the first page's request may be retried; later pages carry no idempotency key. */
  plan: RetryPlan;
  /** The header of the idempotency key the first page's request carries, if any: dropped from later pages (each is another request). */
  keyHeader?: string | undefined;
}

/** Reads every page (up to the Engine's or the caller's bound) and joins their items into the last page's shape. */
export async function traverse(t: Traversal): Promise<Outcome> {
  const { dispatcher, index, op, policy, input, first, limits, bound, keyHeader } = t;
  let { target, renew, plan } = t;
  /** The attempts of pages sent more than once, each with its page. */
  let attempts: Attempt[] | undefined;
  const noteAttempts = (res: RetriedResponse) => {
    if (res.attempts) (attempts ??= []).push(...res.attempts.map((a) => ({ ...a, page: pages + 1 })));
  };
  let secret = target.secret;
  const maxPages = bound ?? policy.engineMaxPages;
  const items: unknown[] = [];
  // The aggregate as the REST/gRPC text must carry big integers exactly, but envelope.data keeps
  // plain numbers: raw-JSON objects do not survive the structured clone into the MCP sandbox. So
  // once a page holds such an integer, a second item list follows with those values kept exact.
  let exactItems: unknown[] | undefined;
  let exactLast: unknown;
  const origin = new URL(first.url).origin;
  // The provider timeout bounds the whole traversal, as the byte cap does: pages share it.
  const deadline = Date.now() + limits.timeoutMs;
  let request = first;
  let pageInput = input;
  let pages = 0;
  let bytes = 0;
  let durationMs = 0;
  let last: ProviderResponse | undefined;
  let continuation: Continuation | undefined;
  const partial = () => ({ providerAnswered: true, pages, durationMs, bytes, sha256: null, attempts });
  /** A provider answer that breaks the pagination policy: 502, naming the page, with what was read. */
  const mismatch = (message: string): Outcome => ({
    envelope: failure(502, { code: 'PROVIDER_ERROR', message, retryable: false, details: { page: pages } }),
    ...partial(),
  });

  for (;;) {
    const timeoutMs = Math.max(1, deadline - Date.now());
    let res: RetriedResponse;
    const sentAt = performance.now();
    try {
      res = await sendWithRetries(dispatcher, request, { ...limits, timeoutMs, maxBytes: limits.maxBytes - bytes, capBytes: limits.maxBytes }, secretForms(target.auth, secret), plan);
    } catch (err) {
      // A later page that failed (never sent, reset, timed out, past the result cap): the earlier
      // pages did reach the provider, and the receipt says so, with the time spent on this one.
      if (pages === 0 || !(err instanceof EngineError)) throw err;
      const pageAttempts = err.details?.attempts as Attempt[] | undefined;
      if (pageAttempts) (attempts ??= []).push(...pageAttempts.map((a) => ({ ...a, page: pages + 1 })));
      const sent = err.providerExecution !== 'not_started';
      if (sent) durationMs += pageAttempts ? pageAttempts.reduce((sum, a) => sum + a.durationMs, 0) : performance.now() - sentAt;
      const later = new EngineError(err.code, `${err.message} (page ${pages + 1}; pages 1–${pages} were read)`, {
        details: { ...err.details, page: pages + 1 },
        retryable: err.retryable,
        providerExecution: sent ? err.providerExecution : 'completed',
      });
      // A page that failed once sent answers with its own status (502, 504, 413), as a first page would.
      return { envelope: later.toEnvelope(), ...partial(), ...(sent ? { providerAnswered: false } : {}) };
    }
    if (res.status === 401 && renew) {
      // A token the provider refused on the first page is renewed once; later pages use the new one.
      const again = pages === 0 ? await renewedRequest(op, pageInput, target, renew) : undefined;
      renew = undefined;
      if (again) {
        durationMs += attemptsDurationMs(res);
        noteAttempts(res);
        ({ request, target, secret } = again);
        if (keyHeader && request.headers[keyHeader] === undefined) request.headers[keyHeader] = first.headers[keyHeader]!;
        res = await sendWithRetries(dispatcher, request, { ...limits, timeoutMs: Math.max(1, deadline - Date.now()), maxBytes: limits.maxBytes, capBytes: limits.maxBytes }, secretForms(target.auth, secret), plan);
      }
    }
    noteAttempts(res);
    pages++;
    bytes += res.raw.length;
    durationMs += attemptsDurationMs(res);
    if (answeredError(index, res)) {
      return { ...providerFailure(index, res, { page: pages, ...retryDetails(res) }), ...partial(), sha256: sha256(res.raw) };
    }
    const pageItems = getAt(res.data, policy.items);
    if (!Array.isArray(pageItems)) {
      return mismatch(`page ${pages} of ${op.id} has no array at '${policy.items}'; the provider's answer does not match the pagination policy`);
    }
    const exact = exactParse(res.json);
    if (exact !== undefined) exactItems ??= items.slice();
    if (exactItems) for (const item of exact === undefined ? pageItems : (getAt(exact, policy.items) as unknown[])) exactItems.push(item);
    for (const item of pageItems) items.push(item);
    last = res;
    exactLast = exact;

    let next: ProviderRequest | undefined;
    const stopped = (policy.stop !== undefined && !getAt(res.data, policy.stop)) || lastPage(policy, res.data, pageInput, pageItems.length) || lastNumberedPage(policy, res.data, pageInput);
    if (followsLinks(policy)) {
      let link: string | undefined;
      if (policy.style === 'link_header') link = nextLink(res.headers.link);
      else {
        const found = getAt(res.data, policy.continuation!);
        if (found !== undefined && found !== null && typeof found !== 'string') {
          return mismatch(`page ${pages} of ${op.id} has no URL at '${policy.continuation}' where the pagination policy expects the next page's; the provider's answer does not match the policy`);
        }
        link = found || undefined; // absent, null or empty: the last page
      }
      if (link) {
        let url: URL;
        try {
          url = new URL(link, request.url);
        } catch {
          // Not thrown on: the parser's error carries the request URL, which may hold a query-string key.
          return mismatch(`the provider's next-page link on page ${pages} is not a valid URL; the Engine cannot follow it`);
        }
        if (url.origin !== origin) {
          return mismatch(`the provider's next-page link points to another origin (${url.origin}); the Engine does not send credentials there`);
        }
        next = { ...request, url: withQueryCredential(url.href, target.auth, target.secret) };
      }
    } else if (!stopped) {
      const key = policy.pageInput!;
      let value: unknown;
      // A cursor may follow an empty page; page and offset styles end on one.
      if (policy.style === 'cursor') {
        value = getAt(res.data, policy.continuation!);
        if (value !== null && typeof value === 'object') {
          // An object or array cannot be a query value: it would be spread into other parameters.
          return mismatch(`page ${pages} of ${op.id} has ${Array.isArray(value) ? 'an array' : 'an object'} at '${policy.continuation}' where the pagination policy expects a cursor; the provider's answer does not match the policy`);
        }
        // A cursor past 2^53 goes back as its digits (a string: it is a path, query or header value).
        const exactValue = exact === undefined ? undefined : getAt(exact, policy.continuation!);
        if (RawJson.isRawJSON(exactValue)) value = exactValue.rawJSON;
      } else if (pageItems.length > 0) value = asDeclared(op, key, policy.style === 'page' ? Number(pageInput[key] ?? 1) + 1 : Number(pageInput[key] ?? 0) + pageItems.length);
      if (value !== undefined && value !== null && value !== '') {
        pageInput = { ...pageInput, [key]: value };
        try {
          next = buildRequest(op, pageInput, target);
        } catch (err) {
          if (!(err instanceof EngineError)) throw err;
          // The provider's cursor, not the caller's input, is what cannot be sent.
          return mismatch(`page ${pages} of ${op.id} gives a continuation at '${policy.continuation ?? key}' that cannot be sent back (${err.message.replace(/^input\/\S+ /, '')}); the provider's answer does not match the pagination policy`);
        }
      } else if (policy.stop !== undefined) {
        // The provider says more pages follow but gives nothing to continue from: never a silent partial result.
        return mismatch(
          policy.style === 'cursor'
            ? `page ${pages} of ${op.id} says more pages follow ('${policy.stop}') but has no continuation at '${policy.continuation}'; the provider's answer does not match the pagination policy`
            : `page ${pages} of ${op.id} is empty but says more pages follow ('${policy.stop}'); the provider's answer does not match the pagination policy`,
        );
      }
    }
    if (!next || (followsLinks(policy) && stopped)) break;
    if (keyHeader && next.headers[keyHeader] !== undefined) {
      // Another page is another request: the first page's key would make the provider answer that one again.
      const { [keyHeader]: _key, ...headers } = next.headers;
      next = { ...next, headers };
    }
    if (pages === 1 && keyHeader) plan = { ...plan, repeatable: IDEMPOTENT_METHODS.has(op.method) };
    if (next.url === request.url) {
      // The same cursor or next link again: reading it would return this page again, up to the limit.
      return mismatch(`page ${pages} of ${op.id} leads back to itself (its continuation did not change); the Engine stops rather than read the same page again`);
    }
    if (pages >= maxPages) {
      if (bound !== undefined) {
        // Caller bound: return what was read, the provider's continuation intact, and say that more follow.
        continuation = followsLinks(policy) ? linkContinuation(op, pageInput, next.url) : { more: true, input: { [policy.pageInput!]: pageInput[policy.pageInput!] } };
        break;
      }
      const limit = new EngineError(
        'ENGINE_PAGINATION_LIMIT',
        `${op.id} has more than ${policy.engineMaxPages} pages (the Engine limit); narrow the provider query or pass a smaller pagination bound`,
        { details: { pages, engine_max_pages: policy.engineMaxPages }, providerExecution: 'completed' },
      );
      return { envelope: limit.toEnvelope(), ...partial(), providerAnswered: false };
    }
    request = next;
  }
  const data = setAt(last!.data, policy.items, items);
  let json: string;
  try {
    // The text the caller receives (spliced by REST and gRPC), which the receipt's bytes and hash describe.
    json = JSON.stringify(exactItems ? setAt(exactLast ?? last!.data, policy.items, exactItems) : data);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return mismatch(`the pages of ${op.id} nest too deeply for the Engine to join them`);
  }
  return { envelope: success(last!.status, data), providerAnswered: true, pages, durationMs, bytes: Buffer.byteLength(json), sha256: sha256(json), dataJson: json, continuation, attempts };
}
