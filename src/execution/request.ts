// Builds the provider HTTP request from a validated input: path, query, header and body
// parameters, plus the Engine-owned headers and credential.
import type { AuthMethod, FormEncoding, OperationSpec, ParameterSpec, RequestBodySpec } from '../catalog/index.ts';
import { inputKey } from '../catalog/types.ts';
import { EngineError } from '../envelope/index.ts';
import { redactorFor, type Redactor } from './redaction.ts';

export interface ProviderRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A parameter value the request cannot carry: 400 naming its field, as the input's validation names one (input.q). */
const invalid = (name: string, message: string) =>
  new EngineError('ENGINE_INVALID_INPUT', `input/${name} ${message}`, {
    details: { field: `input.${name}`, errors: [{ instancePath: `/${name}`, message }] },
  });

/** What an HTTP field value cannot hold (RFC 9110 §5.5: HTAB, SP, VCHAR, obs-text only). */
const HEADER_UNSAFE = /[^\t\x20-\x7e\x80-\xff]/;

/** A value as one text part; an integer of 1e21 or more as its digits (String gives `1e+21`). */
const scalar = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : typeof v === 'number' && Number.isInteger(v) && Math.abs(v) >= 1e21 ? BigInt(v).toString() : String(v);

function encodeSegment(name: string, segment: string): string {
  if (segment === '.' || segment === '..') throw invalid(name, `must not contain a '.' or '..' path segment`);
  return encodeURIComponent(segment);
}

/**
 * The parts of a path or header value in OpenAPI's `simple` style, joined with commas by the caller:
 * an array's items, an object's `key,value` pairs (`key=value` exploded); a scalar is one part.
 * A parameter described by `content` is its JSON text.
 */
function simpleParts(p: ParameterSpec, value: unknown): string[] {
  if (p.json) return [JSON.stringify(value)];
  if (Array.isArray(value)) return value.map(scalar);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => (p.explode ? [`${k}=${scalar(v)}`] : [k, scalar(v)]));
  }
  return [scalar(value)];
}

/** Resource-name values arrive unencoded; slash-preserving parameters keep '/', all else is escaped. */
export function encodePathValue(p: ParameterSpec, value: unknown): string {
  if (!p.json && value !== null && typeof value === 'object') {
    // simple style: each item, key and value escaped on its own; the commas (and an exploded pair's '=') kept.
    const one = (part: unknown) => encodePathValue({ ...p, slashPreserving: false }, scalar(part));
    // An empty list would leave an empty segment: the path of another resource (the collection).
    if (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0) throw invalid(p.name, 'must not be empty');
    if (Array.isArray(value)) return value.map(one).join(',');
    return Object.entries(value)
      .map(([k, v]) => (p.explode ? `${one(k)}=${one(v)}` : `${one(k)},${one(v)}`))
      .join(',');
  }
  if (value === null && !p.json) throw invalid(p.name, 'must not be null (a path cannot leave a segment out)');
  const text = p.json ? JSON.stringify(value) : scalar(value);
  if (text === '') throw invalid(p.name, 'must not be empty');
  if (!p.slashPreserving) return encodeSegment(p.name, text);
  const segments = text.split('/');
  // `a//b`, `/a` or `a/`: an empty segment names another path (proxies merge slashes: `/files//` is `/files/`).
  if (segments.some((segment) => segment === '')) throw invalid(p.name, "must not begin or end with '/' or hold '//'");
  return segments.map((segment) => encodeSegment(p.name, segment)).join('/');
}

/**
 * Adds one query parameter. `taken` says whether a query name belongs to something else (a declared
 * parameter, the credential): an exploded object's properties become query names of their own.
 */
function appendQuery(parts: string[], p: ParameterSpec, value: unknown, taken: (name: string) => boolean) {
  const k = encodeURIComponent(p.name);
  if (p.json) {
    parts.push(`${k}=${encodeURIComponent(JSON.stringify(value))}`);
  } else if (Array.isArray(value)) {
    // deepObject is undefined for arrays in OpenAPI; Stripe's `expand` is one, read by index (`expand[0]=…`).
    if (p.deepObject) value.forEach((item, i) => parts.push(`${k}[${i}]=${encodeURIComponent(scalar(item))}`));
    else if (p.explode) for (const item of value) parts.push(`${k}=${encodeURIComponent(scalar(item))}`);
    else parts.push(`${k}=${value.map((item) => encodeURIComponent(scalar(item))).join(p.delimiter === ' ' ? '%20' : p.delimiter ?? ',')}`);
  } else if (value !== null && typeof value === 'object') {
    if (!p.explode && !p.deepObject) {
      // form, explode false: `name=prop,value,prop,value` (OpenAPI 3 style examples)
      parts.push(`${k}=${Object.entries(value).flatMap(([prop, v]) => [encodeURIComponent(prop), encodeURIComponent(scalar(v))]).join(',')}`);
      return;
    }
    for (const [prop, v] of Object.entries(value)) {
      if (!p.deepObject && taken(prop)) throw invalid(p.name, `has a property '${prop}', which is the name of another query parameter of this operation; set that parameter itself`);
      const name = p.deepObject ? `${k}[${encodeURIComponent(prop)}]` : encodeURIComponent(prop);
      parts.push(`${name}=${encodeURIComponent(scalar(v))}`);
    }
  } else {
    parts.push(`${k}=${encodeURIComponent(scalar(value))}`);
  }
}

/** A form value's text: null is the empty value (Stripe's way to unset a field), a nested value its JSON text. */
const formScalar = (v: unknown): string => (v === null ? '' : scalar(v));

/** `name[key]…=value` pairs of a deepObject property, nested values in brackets and arrays by index (as Stripe reads them). */
function bracketPairs(name: string, value: unknown, parts: string[]) {
  if (Array.isArray(value)) value.forEach((item, i) => bracketPairs(`${name}[${i}]`, item, parts));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) bracketPairs(`${name}[${encodeURIComponent(k)}]`, v, parts);
  else parts.push(`${name}=${encodeURIComponent(formScalar(value))}`);
}

/**
 * An application/x-www-form-urlencoded body from the input's `body` object, each property written
 * as the description's encoding says (RequestBodySpec.encoding; absent: form style, exploded).
 */
function formBody(spec: RequestBodySpec, value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid('body', 'must be an object: a form body is a list of name=value pairs');
  const parts: string[] = [];
  try {
    for (const [name, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const k = encodeURIComponent(name);
      const enc: FormEncoding = (spec.encoding && Object.hasOwn(spec.encoding, name) ? spec.encoding[name] : undefined) ?? { style: 'form', explode: true };
      if (enc.json) parts.push(`${k}=${encodeURIComponent(JSON.stringify(v))}`);
      else if (enc.style === 'deepObject') bracketPairs(k, v, parts);
      else if (Array.isArray(v)) {
        if (enc.explode) for (const item of v) parts.push(`${k}=${encodeURIComponent(formScalar(item))}`);
        else parts.push(`${k}=${v.map((item) => encodeURIComponent(formScalar(item))).join(enc.style === 'spaceDelimited' ? '%20' : enc.style === 'pipeDelimited' ? '|' : ',')}`);
      } else if (v !== null && typeof v === 'object') {
        const pairs = Object.entries(v);
        if (enc.explode) for (const [prop, pv] of pairs) parts.push(`${encodeURIComponent(prop)}=${encodeURIComponent(formScalar(pv))}`);
        else parts.push(`${k}=${pairs.flatMap(([prop, pv]) => [encodeURIComponent(prop), encodeURIComponent(formScalar(pv))]).join(',')}`);
      } else parts.push(`${k}=${encodeURIComponent(formScalar(v))}`);
    }
  } catch (err) {
    if (err instanceof URIError) throw invalid('body', 'contains an unpaired UTF-16 surrogate, which cannot be sent');
    throw err;
  }
  return parts.join('&');
}

/** RFC 7617: `Basic` and the UTF-8 bytes of `user:password` in base64. */
export const basicCredential = (secret: string): string => `Basic ${Buffer.from(secret, 'utf8').toString('base64')}`;

/**
 * What a provider's answer must never hand back, for the dispatcher to redact (./redaction.ts): the
 * secret, and for HTTP Basic also its password alone (the user ID, an email, is no secret; runs of
 * the password are redacted, not of the user ID). Their base64 forms are redacted too.
 */
export function secretForms(auth: AuthMethod | undefined, secret: string | null): Redactor | null {
  if (secret === null || secret === '') return null;
  if (auth?.type !== 'http_basic') return redactorFor([secret], secret);
  const password = secret.slice(secret.indexOf(':') + 1);
  return redactorFor(password ? [secret, password] : [secret], password || secret);
}

/** Where and how a request is sent: the service's base URL and headers, and the credential. */
export interface RequestTarget {
  baseUrl: string;
  headers: Record<string, string>;
  auth: AuthMethod | undefined;
  secret: string | null;
}

export function buildRequest(op: OperationSpec, input: Record<string, unknown>, target: RequestTarget): ProviderRequest {
  let path = op.path;
  const query: string[] = [];
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'svc-engine/0.1' };
  for (const [name, value] of Object.entries(target.headers)) headers[name.toLowerCase()] = value;

  for (const p of op.parameters) {
    const value = input[inputKey(p)];
    if (value === undefined) continue;
    try {
      if (p.in === 'path') {
        const encoded = encodePathValue(p, value);
        path = path.replaceAll(`{${p.name}}`, () => encoded); // a placeholder may appear more than once
      }
      else if (p.in === 'query') {
        if (value !== null) appendQuery(query, p, value, (name) => name !== p.name && ((target.auth?.type === 'api_key' && target.auth.in === 'query' && target.auth.param === name) || op.parameters.some((q) => q.in === 'query' && q.name === name)));
      } else if (value !== null || p.json) {
        // A null header value leaves the header out, as a null query value does.
        const text = typeof value === 'string' && !p.json ? value : simpleParts(p, value).join(',');
        if (/[\r\n]/.test(text)) throw invalid(p.name, 'must not contain line breaks');
        if (HEADER_UNSAFE.test(text)) throw invalid(p.name, 'must hold only printable ASCII, spaces, tabs and Latin-1 characters (an HTTP header value cannot carry others)');
        headers[p.name.toLowerCase()] = text;
      }
    } catch (err) {
      // encodeURIComponent refuses a lone UTF-16 surrogate: it has no UTF-8 form to send.
      if (err instanceof URIError) throw invalid(p.name, 'contains an unpaired UTF-16 surrogate, which cannot be sent');
      throw err;
    }
  }

  let body: string | undefined;
  if (op.body && input.body !== undefined) {
    body = /json/i.test(op.body.contentType) ? JSON.stringify(input.body) : formBody(op.body, input.body);
    headers['content-type'] = op.body.contentType;
  }

  const auth = target.auth;
  if (auth?.type === 'api_key' && target.secret !== null) {
    const credential = auth.prefix + target.secret;
    if (auth.in === 'header') headers[auth.header!.toLowerCase()] = credential;
    else query.push(`${encodeURIComponent(auth.param!)}=${encodeURIComponent(credential)}`);
  } else if (auth?.type === 'http_basic' && target.secret !== null) {
    headers.authorization = basicCredential(target.secret);
  }

  const url = target.baseUrl + path + (query.length ? `?${query.join('&')}` : '');
  return { method: op.method, url, headers, body };
}

/**
 * A provider's next-page URL carrying the call's query-string credential: the provider's own value
 * for that parameter (absent, or another key) replaced, the rest of its query kept byte for byte.
 */
export function withQueryCredential(href: string, auth: AuthMethod | undefined, secret: string | null): string {
  if (auth?.type !== 'api_key' || auth.in !== 'query' || secret === null) return href;
  const hash = href.indexOf('#');
  const url = hash === -1 ? href : href.slice(0, hash);
  const q = url.indexOf('?');
  const base = q === -1 ? url : url.slice(0, q);
  const param = auth.param!;
  const kept = q === -1 ? [] : url.slice(q + 1).split('&').filter((pair) => pair !== '' && safeDecode(pair.split('=', 1)[0]!) !== param);
  kept.push(`${encodeURIComponent(param)}=${encodeURIComponent(auth.prefix + secret)}`);
  return `${base}?${kept.join('&')}`;
}

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

const templates = new WeakMap<OperationSpec, RegExp>();
/** An operation's path template as a pattern over built (encoded) paths. */
function templateOf(op: OperationSpec): RegExp {
  let pattern = templates.get(op);
  if (!pattern) {
    const source = op.path
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const name = /^\{([^}]+)\}$/.exec(part)?.[1];
        if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        return op.parameters.some((p) => p.in === 'path' && p.name === name && p.slashPreserving) ? '.+' : '[^/]+';
      })
      .join('');
    pattern = new RegExp(`^${source}$`);
    templates.set(op, pattern);
  }
  return pattern;
}

/**
 * Another operation of the service whose path the request's path also is. A slash-preserving value
 * with a '/' can complete another template (GitHub's branch `main/protection` in repos/get-branch
 * builds repos/get-branch-protection's path): a call that would reach an operation the version did
 * not select. Checked only when such a value holds a '/'.
 */
export function reachesAnother(op: OperationSpec, input: Record<string, unknown>, request: ProviderRequest, baseUrl: string, operations: readonly OperationSpec[]): { param: string; other: OperationSpec } | undefined {
  const param = op.parameters.find((p) => p.in === 'path' && p.slashPreserving && typeof input[inputKey(p)] === 'string' && (input[inputKey(p)] as string).includes('/'));
  if (!param) return undefined;
  const rest = request.url.slice(baseUrl.length);
  const query = rest.indexOf('?');
  const path = query === -1 ? rest : rest.slice(0, query);
  const other = operations.find((o) => o !== op && o.method === op.method && templateOf(o).test(path));
  return other ? { param: param.name, other } : undefined;
}

/** The request again with a renewed OAuth token, or undefined when the connection has no newer one to give. */
export async function renewedRequest(op: OperationSpec, input: Record<string, unknown>, target: RequestTarget, renew: () => Promise<string>) {
  const secret = await renew();
  if (secret === target.secret) return undefined;
  const renewedTarget = { ...target, secret };
  return { request: buildRequest(op, input, renewedTarget), target: renewedTarget, secret };
}
