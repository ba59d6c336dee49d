// What can be wrong with a provider description or its policy, and where: the error a catalogue
// check throws, and the checks of URLs and header names that import and policy share.

export class CatalogError extends Error {
  override name = 'CatalogError';
  /** The request field the problem is in (an import's `document` unless said otherwise). */
  readonly field: string;
  /** The request conflicts with what exists (409) rather than being malformed (400). */
  readonly conflict: boolean;
  /** The Engine policy (engine.yaml) is at fault, not the description: never narrowed to one operation. */
  readonly policy: boolean;

  constructor(message: string, options: { field?: string; conflict?: boolean; policy?: boolean } = {}) {
    super(message);
    this.field = options.field ?? 'document';
    this.conflict = options.conflict ?? false;
    this.policy = options.policy ?? false;
  }
}

/** Why `url` cannot be a provider base URL (absolute http(s), a host, no credentials, query or fragment), or undefined. */
export function baseUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `'${url}' is not an absolute URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an http or https URL';
  if (!parsed.hostname) return 'must name a host';
  if (parsed.username || parsed.password) return 'must not carry credentials (store them as a secret: `svc-cli secret set`)';
  if (url.includes('?') || url.includes('#')) return 'must not have a query or fragment (operation paths are appended to it)';
  if (url.includes('{') || url.includes('}')) return `'${url}' holds a {variable}: give the URL with the value to use`;
  return undefined;
}

/** An HTTP field name (RFC 9110 token). */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Text an HTTP field value can carry: no control characters, Latin-1 only. */
export const FIELD_TEXT = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Header fields the Engine owns on a provider request: connection management and message framing
 * (RFC 9110 §7.6.1, RFC 9112 §6), the target host, and proxy fields. A value from a caller there
 * could smuggle a second request or move this one; the HTTP client refuses most of them outright.
 */
const ENGINE_OWNED_HEADERS = new Set(['connection', 'content-length', 'expect', 'host', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'via']);

/** Why `name` cannot be a header the Engine sends from a description (a parameter or API-key header), or undefined. */
export function headerNameProblem(name: string): string | undefined {
  if (!FIELD_NAME.test(name)) return `'${name}' is not a valid HTTP header name (letters, digits and !#$%&'*+.^_\`|~- only)`;
  const lower = name.toLowerCase();
  if (ENGINE_OWNED_HEADERS.has(lower) || lower.startsWith('proxy-')) return `'${name}' is a header the Engine sets itself (connection, framing, host or proxy fields)`;
  return undefined;
}

/** A JavaScript accessor for `key` after `base`: `paths['/pets/{id}'].get`, `parameters[0]`. */
export function at(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return base ? `${base}.${key}` : key;
  // Quoted as in JavaScript: control characters escaped (JSON's escapes), then the quote.
  return `${base}['${JSON.stringify(key).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}']`;
}

/** Where the Engine found each parameter and request body of a description (see normalizeService). */
export type SourceLocations = WeakMap<object, string>;
