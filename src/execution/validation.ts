// Input validation against each operation's canonical request schema. One ajv instance per
// service version holds the provider's component schemas; operation validators compile lazily.
// An import compiles every operation's validator with the same setup (src/catalog/input-schema.ts),
// so what is imported can be called. Provider `pattern`s run on RE2: in time linear in the input,
// whatever the pattern.
import type { Ajv2020, ValidateFunction, ErrorObject } from 'ajv/dist/2020.js';
import type { OperationSpec, ServiceIndex } from '../catalog/types.ts';
import { compileInputValidator, serviceAjv } from '../catalog/input-schema.ts';
import { withPatternBudget } from '../catalog/pattern.ts';
import { EngineError } from '../envelope/index.ts';
import { getAt, parsePointer } from '../json-pointer/index.ts';

const MAX_REPORTED_ERRORS = 10;

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
  '^[\\x21-\\x7e]+$': 'must hold visible ASCII characters only (letters, digits and punctuation; no spaces or control characters)',
  '^[^=]+=[^=]+$': "must be '<service>=<version>' or '<service>=<operation>': one '=' with text on both sides",
};
