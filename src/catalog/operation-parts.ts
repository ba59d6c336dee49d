// The checks of an operation's parts while a description is normalised (./normalize.ts): parameter
// names and styles, path templates, form encodings, and the group an operation is filed under.
import type { FormEncoding, JsonSchema } from './types.ts';
import { CatalogError, at, headerNameProblem } from './problems.ts';
import { toJsonSchema } from './schema-dialect.ts';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const camel = (s: string) => s.replace(/[-_\s]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^[A-Z]/, (c) => c.toLowerCase());

export function groupFor(providerOperationId: string, tags: string[], override: string | undefined): string[] {
  if (override) return override.split('.');
  if (providerOperationId.includes('/')) return providerOperationId.split('/').map(camel);
  const tag = tags[0];
  return tag ? [camel(tag), camel(providerOperationId)] : [camel(providerOperationId)];
}

/** Why a parameter cannot be declared under `name`, or undefined. */
export function parameterNameProblem(name: string, location: 'path' | 'query' | 'header'): string | undefined {
  if (!name) return 'a parameter needs a name';
  if (!name.isWellFormed()) return 'the parameter name holds an unpaired UTF-16 surrogate, which cannot be sent';
  if (inherited(name)) return `a parameter cannot be named '${name}': every JavaScript object already has that property, so the Engine could not tell it from an absent input`;
  if (location === 'header') return headerNameProblem(name);
  if (location === 'path' && /[{}]/.test(name)) return `path parameter name '${name}' cannot hold '{' or '}'`;
  return undefined;
}

/**
 * Why a path template would not reach the provider as written, or undefined. The WHATWG URL parser
 * drops tabs and newlines, turns '\\' into '/', and removes '.' and '..' segments (even as %2e),
 * which could move a request outside the service's base path.
 */
export function pathTemplateProblem(path: string): string | undefined {
  if (/[\x00-\x20\x7f\\]/.test(path)) return 'holds a space, a control character or a backslash, which a URL cannot carry as written';
  if (/[{}]/.test(path.replace(/\{[^{}]+\}/g, ''))) return "has an unmatched or empty '{' or '}' (a placeholder is {name})";
  if (path.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return "holds a '.' or '..' segment, which the URL parser would remove";
  return undefined;
}

/** Styles the Engine can send, per location (OpenAPI's default first). */
export const STYLES: Record<'path' | 'query' | 'header', readonly string[]> = { query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'], path: ['simple'], header: ['simple'] };

/**
 * How a parameter is serialised: its style (OpenAPI's default when unset), a query array's
 * delimiter, or JSON text for one described by `content` (with the schema found there).
 */
export function parameterStyle(
  p: Obj & { in: 'path' | 'query' | 'header' },
  pAt: string,
  refuseAt: (field: string, message: string) => CatalogError,
): { style: string; delimiter?: ' ' | '|'; json?: true; schema?: JsonSchema } {
  const allowed = STYLES[p.in];
  if (p.content !== undefined) {
    const content = isObj(p.content) ? p.content : {};
    const type = Object.keys(content).find((t) => /json/i.test(t));
    if (!type) throw refuseAt(at(pAt, 'content'), 'a parameter described by content needs a JSON media type; the Engine sends its value as JSON text');
    const media = content[type];
    return { style: allowed[0]!, json: true, schema: toJsonSchema(isObj(media) ? (media.schema ?? {}) : {}) };
  }
  const style = p.style ?? allowed[0];
  if (typeof style !== 'string' || !allowed.includes(style)) {
    throw refuseAt(at(pAt, 'style'), `style '${String(style)}' is not supported for a ${p.in} parameter (supported: ${allowed.join(', ')})`);
  }
  return { style, ...(style === 'spaceDelimited' ? { delimiter: ' ' as const } : style === 'pipeDelimited' ? { delimiter: '|' as const } : {}) };
}

export const FORM = 'application/x-www-form-urlencoded';
export const FORM_STYLES = ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'] as const;

/** A form body's `encoding` entries that differ from form style, exploded (the default); a style the Engine cannot write refuses the operation. */
export function formEncoding(raw: Obj, encodingAt: string, refuseAt: (field: string, message: string) => CatalogError): Record<string, FormEncoding> | undefined {
  const out: Record<string, FormEncoding> = {};
  for (const [name, entry] of Object.entries(raw)) {
    if (!isObj(entry) || name === '__proto__') continue;
    const style = entry.style ?? 'form';
    if (typeof style !== 'string' || !(FORM_STYLES as readonly string[]).includes(style)) {
      throw refuseAt(at(at(encodingAt, name), 'style'), `style '${String(style)}' is not supported in a form body (supported: ${FORM_STYLES.join(', ')})`);
    }
    const json = typeof entry.contentType === 'string' && /json/i.test(entry.contentType);
    const explode = entry.explode === undefined ? style === 'form' : entry.explode === true;
    if (style === 'form' && explode && !json) continue;
    out[name] = { style: style as FormEncoding['style'], explode, ...(json ? { json: true as const } : {}) };
  }
  return Object.keys(out).length ? out : undefined;
}

/** Why a grouped path cannot name methods in the typed packages (and which segment), or undefined. */
export function groupNameProblem(group: string[]): { segment: number; message: string } | undefined {
  const display = group.join('.');
  const unnamed = group.findIndex((segment) => !/[A-Za-z0-9]/.test(segment));
  if (unnamed >= 0) {
    return { segment: unnamed, message: `gives the typed packages a method or group with no name (grouped path '${display}'); use a letter or digit between every '/' of an operationId` };
  }
  // A group (not a method) named like an Object member would resolve to that member in the packages' tables.
  const member = group.slice(0, -1).findIndex(inherited);
  if (member >= 0) {
    return { segment: member, message: `gives the typed packages a group named '${group[member]}' (grouped path '${display}'), a name every JavaScript object already has; rename it` };
  }
  return undefined;
}

/** A name every JavaScript object already has (`__proto__`, `constructor`, `toString`, …). */
export const inherited = (name: string) => name in Object.prototype;
