// An operation's input as JSON Schema, and the ajv instance that checks it: what an import must
// compile (src/catalog/check.ts) and what every call is validated with (src/execution/validation.ts).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { SchemaValidateFunction } from 'ajv/dist/types/index.js';
import addFormats from 'ajv-formats';
import { canonicalJson } from '../json-input/index.ts';
import { linearRegExp } from './pattern.ts';
import { inputKey, type JsonSchema, type OperationSpec, type ServiceIndex } from './types.ts';

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
