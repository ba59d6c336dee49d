// Input validation against each operation's canonical request schema. One ajv instance per
// service version holds the provider's component schemas; operation validators compile lazily.
import { Ajv2020, type ValidateFunction, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema, OperationSpec, ServiceIndex } from '../catalog/index.ts';
import { EngineError } from '../envelope/index.ts';

const MAX_REPORTED_ERRORS = 10;

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

/** The JSON Schema of an operation's `input`: parameters by name, the request body under `body`. */
export function inputSchemaOf(op: OperationSpec): Record<string, unknown> {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of op.parameters) {
    properties[p.name] = p.schema;
    if (p.required) required.push(p.name);
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
  private readonly compiled = new WeakMap<OperationSpec, ValidateFunction>();

  private compile(index: ServiceIndex, op: OperationSpec): ValidateFunction {
    const id = serviceSchemaId(index);
    let ajv = this.perService.get(index);
    if (!ajv) {
      ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true, allowUnionTypes: true });
      addFormats.default(ajv);
      ajv.addSchema({ $id: id, components: { schemas: index.schemas } });
      this.perService.set(index, ajv);
    }
    const validate = ajv.compile(anchor(inputSchemaOf(op), id) as object);
    this.compiled.set(op, validate);
    return validate;
  }

  /** Throws ENGINE_INVALID_INPUT naming each failing instancePath. */
  validate(index: ServiceIndex, op: OperationSpec, input: unknown): void {
    const validate = this.compiled.get(op) ?? this.compile(index, op);
    if (!validate(input)) {
      const issues = describe(validate.errors ?? []);
      const first = issues[0];
      throw new EngineError(
        'ENGINE_INVALID_INPUT',
        `input${first?.instancePath ?? ''} ${first?.message ?? 'is invalid'}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`,
        { details: { errors: issues } },
      );
    }
  }
}

/** ENGINE_INVALID_INPUT for a failed request validator (REST route or its gRPC twin), naming each instancePath. */
export function requestValidationError(where: 'body' | 'parameters', validate: ValidateFunction): EngineError {
  const errors = (validate.errors ?? []).slice(0, MAX_REPORTED_ERRORS).map((e) => ({
    instancePath: e.instancePath,
    message:
      e.keyword === 'additionalProperties'
        ? `has unknown property '${String(e.params.additionalProperty)}'`
        : e.keyword === 'required'
          ? `is missing required property '${String(e.params.missingProperty)}'`
          : (e.message ?? 'is invalid'),
  }));
  const first = errors[0];
  return new EngineError('ENGINE_INVALID_INPUT', `${where}${first?.instancePath ?? ''} ${first?.message ?? 'is invalid'}`, { details: { errors } });
}
