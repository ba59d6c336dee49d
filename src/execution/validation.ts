// Input validation against each operation's canonical request schema. One ajv instance per
// service version holds the provider's component schemas; operation validators compile lazily.
// An import compiles every operation's validator with the same setup (serviceAjv), so what is
// imported can be called. Provider `pattern`s run on RE2 (linearRegExp): in time linear in the
// input, whatever the pattern.
import { Ajv2020, type ValidateFunction, type ErrorObject } from 'ajv/dist/2020.js';
import type { SchemaValidateFunction } from 'ajv/dist/types/index.js';
import addFormats from 'ajv-formats';
import type { JsonSchema, OperationSpec, ServiceIndex } from '../catalog/types.ts';
import { inputKey } from '../catalog/types.ts';
import { linearRegExp, withPatternBudget } from '../catalog/pattern.ts';
import { EngineError } from '../envelope/index.ts';
import { canonicalJson } from '../json-input/index.ts';
import { getAt, parsePointer } from '../json-pointer/index.ts';

const MAX_REPORTED_ERRORS = 10;

/**
 * ajv-formats' `url` regex backtracks: a 200 KB value took 7 s, a 1 MiB body two minutes, all on
 * the event loop. The WHATWG URL parser is linear. The meaning is kept (an absolute http, https or
 * ftp URL with a host), less the regex's refusal of private and loopback addresses. The value goes
 * to the provider as written, so what the parser would only repair is refused: whitespace,
 * controls, backslashes, an empty authority, empty host labels.
 */
function isUrl(value: string): boolean {
  if (!/^(?:https?|ftp):\/\/[^/\\]/i.test(value) || /[\s\u0000-\u001f\u007f\\]/.test(value)) return false;
  if (!URL.canParse(value)) return false;
  const host = new URL(value).hostname;
  return host !== '' && !host.startsWith('.') && !host.includes('..');
}

/** ajv-formats' formats, each running in time linear in the value (see isUrl). */
export function addInputFormats(ajv: Ajv2020): void {
  addFormats.default(ajv);
  ajv.addFormat('url', isUrl);
}

const serviceSchemaId = (index: ServiceIndex) => `https://catalog.svc-engine.invalid/${index.service}/${index.version}.json`;

function anchor(schema: unknown, base: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => anchor(s, base));
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? base + v : anchor(v, base)]),
    );
  }
  return schema;
}

/** The JSON Schema of an operation's `input`: parameters by input key (their name, src/catalog/types.ts), the request body under `body`. */
export function inputSchemaOf(op: OperationSpec): Record<string, unknown> {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of op.parameters) {
    properties[inputKey(p)] = p.schema;
    if (p.required) required.push(inputKey(p));
  }
  if (op.body) {
    properties.body = op.body.schema;
    if (op.body.required) required.push('body');
  }
  return { type: 'object', additionalProperties: false, required, properties };
}

export interface ValidationIssue {
  instancePath: string;
  message: string;
  keyword: string;
  params: Record<string, unknown>;
}

/**
 * ajv's errors less those of a null alternative: for `anyOf: [X, {type: 'null'}]` (OpenAPI 3.0's
 * `nullable` beside a `$ref`, or 3.1's usual spelling) and a value that is not null, "must be null"
 * and "must match a schema in anyOf" say nothing X's own errors do not; without them the first
 * error is X's, not "must be null".
 */
export function withoutNullAlternatives(errors: ErrorObject[]): ErrorObject[] {
  const dropped = new Set<ErrorObject>();
  for (const group of errors) {
    // `schema` (ajv's verbose errors): the anyOf's list of alternatives.
    if (group.keyword !== 'anyOf' || !Array.isArray(group.schema) || group.schema.length !== 2) continue;
    const nullAt = group.schema.findIndex((alt: unknown) => isNullOnly(alt));
    if (nullAt < 0) continue;
    const nullError = errors.find((e) => e.schemaPath === `${group.schemaPath}/${nullAt}/type` && e.instancePath === group.instancePath);
    if (!nullError) continue;
    dropped.add(nullError);
    dropped.add(group);
  }
  return dropped.size ? errors.filter((e) => !dropped.has(e)) : errors;
}

/** `{ type: 'null' }`, and nothing else. */
const isNullOnly = (schema: unknown): boolean =>
  schema !== null && typeof schema === 'object' && !Array.isArray(schema) && Object.keys(schema).length === 1 && (schema as { type?: unknown }).type === 'null';

function describe(errors: ErrorObject[]): ValidationIssue[] {
  return errors.slice(0, MAX_REPORTED_ERRORS).map((e) => {
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') message = `has unknown property '${String(e.params.additionalProperty)}'`;
    if (e.keyword === 'required') message = `is missing required property '${String(e.params.missingProperty)}'`;
    return { instancePath: e.instancePath, message, keyword: e.keyword, params: e.params };
  });
}

/**
 * `uniqueItems` by hashing each item's canonical JSON. ajv's own compares every pair of items
 * that are not all scalars: 20,000 small objects took 5 s, and a 1 MiB array minutes.
 */
const uniqueItems: SchemaValidateFunction = (schema: unknown, data: unknown): boolean => {
  uniqueItems.errors = undefined;
  if (schema !== true || !Array.isArray(data) || data.length < 2) return true;
  const fail = (message: string, params: Record<string, unknown>) => {
    uniqueItems.errors = [{ keyword: 'uniqueItems', message, params }];
    return false;
  };
  const seen = new Map<string, number>();
  for (let i = 0; i < data.length; i++) {
    let key: string;
    try {
      key = canonicalJson(data[i]);
    } catch (err) {
      if (err instanceof RangeError) return fail('is nested too deeply to check for duplicate items', { i, j: i });
      throw err;
    }
    const j = seen.get(key);
    // As ajv words it: i the later item, j the earlier.
    if (j !== undefined) return fail(`must NOT have duplicate items (items ## ${j} and ${i} are identical)`, { i, j });
    seen.set(key, i);
  }
  return true;
};

/** The ajv instance that validates a service version's inputs: its component schemas added, patterns on RE2. */
export function serviceAjv(index: ServiceIndex): Ajv2020 {
  // Unknown formats are ignored (strict: false) without a console line each: the Engine logs through pino.
  // verbose: an error carries the schema it failed, so withoutNullAlternatives can see an anyOf's alternatives.
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, validateFormats: true, allowUnionTypes: true, logger: false, code: { regExp: linearRegExp } });
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({ keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: true, validate: uniqueItems });
  addInputFormats(ajv);
  ajv.addSchema({ $id: serviceSchemaId(index), components: { schemas: index.schemas } });
  return ajv;
}

/** Compiles an operation's input validator on `ajv` (from serviceAjv); throws what ajv throws for a schema it cannot compile. */
export function compileInputValidator(ajv: Ajv2020, index: ServiceIndex, op: OperationSpec): ValidateFunction {
  return ajv.compile(anchor(inputSchemaOf(op), serviceSchemaId(index)) as object);
}

export class InputValidators {
  /** Keyed by the catalog's objects, so a re-imported service version gets fresh validators. */
  private readonly perService = new WeakMap<ServiceIndex, Ajv2020>();
  /** An operation's validator, or why it cannot be compiled. */
  private readonly compiled = new WeakMap<OperationSpec, ValidateFunction | { uncompilable: string }>();

  private compile(index: ServiceIndex, op: OperationSpec): ValidateFunction | { uncompilable: string } {
    let ajv = this.perService.get(index);
    if (!ajv) {
      ajv = serviceAjv(index);
      this.perService.set(index, ajv);
    }
    let validate: ValidateFunction | { uncompilable: string };
    try {
      validate = compileInputValidator(ajv, index, op);
    } catch (err) {
      // Imports are checked for this (src/catalog/check.ts); one stored before that check, or with a
      // pattern only a backtracking engine runs, still must not answer every call with a 500.
      const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);
      validate = { uncompilable: `operation '${op.id}' cannot be called: the input schema of ${index.service}@${index.version} does not compile (${reason}); import a corrected description as a new version` };
    }
    this.compiled.set(op, validate);
    return validate;
  }

  /**
   * Throws ENGINE_INVALID_INPUT naming each failing instancePath; ENGINE_INPUT_TOO_LARGE for text
   * too long to check against its pattern in one call; ENGINE_CONFLICT when the operation's schema
   * does not compile.
   */
  validate(index: ServiceIndex, op: OperationSpec, input: unknown): void {
    const validate = this.compiled.get(op) ?? this.compile(index, op);
    if (typeof validate !== 'function') throw new EngineError('ENGINE_CONFLICT', validate.uncompilable, { details: { field: 'operation' } });
    const { value: valid, refused } = withPatternBudget(() => validate(input));
    if (refused) {
      const errors = (validate.errors ?? []).filter((e) => e.keyword === 'pattern' && e.params.pattern === refused.pattern);
      const at = errors.find((e) => getAt(input, e.instancePath) === refused.text) ?? errors[0];
      validate.errors = null;
      const path = at?.instancePath ?? '';
      throw new EngineError(
        'ENGINE_INPUT_TOO_LARGE',
        `input${path} is too long to check against its pattern: ${refused.text.length} characters, and the Engine checks at most ${refused.maxChars} against that pattern in one call`,
        { details: { field: fieldOf(at, 'input', true), errors: [{ instancePath: path, message: 'is too long to check against its pattern', keyword: 'pattern', params: { pattern: refused.pattern } }] } },
      );
    }
    if (!valid) {
      const errors = withoutNullAlternatives(validate.errors ?? []);
      const issues = describe(errors);
      // The cached validator would keep its (verbose) errors, the caller's input among them, until its next call.
      validate.errors = null;
      const first = issues[0];
      throw new EngineError(
        'ENGINE_INVALID_INPUT',
        `input${first?.instancePath ?? ''} ${first?.message ?? 'is invalid'}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`,
        { details: { field: fieldOf(errors[0], 'input', true), errors: issues } },
      );
    }
  }
}

/** ENGINE_INVALID_INPUT for a failed request validator (REST route or its gRPC twin), naming each instancePath. */
export function requestValidationError(where: 'body' | 'parameters', validate: ValidateFunction, secret = false): EngineError {
  const errors = (validate.errors ?? []).slice(0, MAX_REPORTED_ERRORS).map((e) => ({
    instancePath: e.instancePath,
    message:
      e.keyword === 'additionalProperties'
        ? // A body that carries a credential may carry it as a key: `{"<secret>": …}`.
          secret
          ? 'has an unknown property (its name is not shown: this request carries credentials)'
          : `has unknown property '${String(e.params.additionalProperty)}'`
        : e.keyword === 'required'
          ? `is missing required property '${String(e.params.missingProperty)}'`
          : (patternMeaning(e) ?? e.message ?? 'is invalid'),
  }));
  const first = errors[0];
  return new EngineError('ENGINE_INVALID_INPUT', `${where}${first?.instancePath ?? ''} ${first?.message ?? 'is invalid'}`, {
    details: { field: fieldOf(validate.errors?.[0], where, false), errors },
  });
}

/**
 * The field an ajv error is about, as a dotted path (`binding.endUserRef`); a missing property names
 * itself. `prefixed`: under `where` (`input.body.name`), else `where` only for the top.
 */
function fieldOf(error: ErrorObject | undefined, where: string, prefixed: boolean): string {
  const path = error ? parsePointer(error.instancePath) : [];
  if (error?.keyword === 'required') path.push(String(error.params.missingProperty));
  if (prefixed) path.unshift(where);
  return path.length ? path.join('.') : where;
}

/** What a failed `pattern` check of the Engine API's own means, when it is one of its patterns. */
export const patternMeaning = (e: { keyword: string; params: Record<string, unknown> }): string | undefined =>
  e.keyword === 'pattern' ? PATTERN_MEANINGS[String(e.params.pattern)] : undefined;

/** What the Engine API's own patterns mean, said instead of the pattern's source. */
const PATTERN_MEANINGS: Record<string, string> = {
  '^[^\\p{Cc}\\p{Cs}]+$': 'must not hold control characters or unpaired UTF-16 surrogates',
  '^[^\\p{Cc}\\p{Cs}]*$': 'must not hold control characters or unpaired UTF-16 surrogates',
  '^[\\x20-\\x7e]*$': 'must hold printable ASCII characters only',
  '^[^=]+=[^=]+$': "must be '<service>=<version>' or '<service>=<operation>': one '=' with text on both sides",
};
