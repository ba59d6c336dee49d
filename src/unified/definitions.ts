// Unified operation definitions (spec/unified/*.yaml): one outcome over named binding steps, each
// a physical operation whose input is a JSONata mapping of the Unified input and earlier steps.
// Validated at gen time and again when loaded: names, schemas, operations, dependencies, cycles
// and the steps each mapping references.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import jsonata from 'jsonata';
import type { JsonSchema } from '../catalog/index.ts';

export interface UnifiedStep {
  operation: string;
  dependsOn: string[];
  /** JSONata producing the physical call's input from `{ input, steps }`. */
  input: string;
}

export interface UnifiedDefinition {
  name: string;
  summary: string;
  description: string;
  input: JsonSchema;
  output: JsonSchema;
  steps: Record<string, UnifiedStep>;
  /** JSONata producing the output from `{ input, steps }`. */
  mapOutput: string;
}

export class UnifiedDefinitionError extends Error {
  override name = 'UnifiedDefinitionError';
}

const NAME = /^unified\.[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;
const STEP = /^[A-Za-z][A-Za-z0-9_]*$/;

const shapeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'summary', 'description', 'input', 'output', 'steps', 'mapOutput'],
  properties: {
    name: { type: 'string' },
    summary: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    input: { type: 'object' },
    output: { type: 'object' },
    steps: {
      type: 'object',
      minProperties: 1,
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['operation', 'input'],
        properties: {
          operation: { type: 'string', minLength: 3 },
          dependsOn: { type: 'array', items: { type: 'string' }, uniqueItems: true },
          input: { type: 'string', minLength: 1 },
        },
      },
    },
    mapOutput: { type: 'string', minLength: 1 },
  },
};

// Built on first use: definitions are validated when generated; the Engine's start needs none of this.
let validation: { ajv: Ajv2020; checkShape: ValidateFunction } | undefined;
function definitionValidation() {
  if (!validation) {
    const ajv = new Ajv2020({ allErrors: false, strict: false });
    addFormats.default(ajv);
    validation = { ajv, checkShape: ajv.compile(shapeSchema) };
  }
  return validation;
}

/** The step names a JSONata expression reads through `steps.<name>`. */
export function referencedSteps(expression: string, where: string): Set<string> {
  let ast: unknown;
  try {
    ast = jsonata(expression).ast();
  } catch (err) {
    throw new UnifiedDefinitionError(`${where}: not a valid JSONata mapping (${(err as { message?: string }).message})`);
  }
  const found = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const n = node as { type?: string; steps?: { type?: string; value?: unknown }[] };
    if (n.type === 'path' && Array.isArray(n.steps) && n.steps[0]?.value === 'steps' && n.steps[1]?.type === 'name') {
      found.add(String(n.steps[1].value));
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(ast);
  return found;
}

/**
 * Validates one definition against the catalogue. `hasOperation` says whether a public physical
 * operation ID exists. Returns the definition with defaults filled in.
 */
export function validateDefinition(raw: unknown, where: string, hasOperation: (id: string) => boolean): UnifiedDefinition {
  const { ajv, checkShape } = definitionValidation();
  if (!checkShape(raw)) {
    const e = checkShape.errors![0]!;
    throw new UnifiedDefinitionError(`${where}: ${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` ('${String(e.params.additionalProperty)}')` : ''}`);
  }
  const def = raw as unknown as UnifiedDefinition;
  if (!NAME.test(def.name)) throw new UnifiedDefinitionError(`${where}: name '${def.name}' must look like unified.<domain>.<action>`);
  for (const key of ['input', 'output'] as const) {
    try {
      ajv.compile(def[key] as object);
    } catch (err) {
      throw new UnifiedDefinitionError(`${where}: the ${key} schema does not compile (${(err as Error).message})`);
    }
  }
  const names = Object.keys(def.steps);
  for (const [name, step] of Object.entries(def.steps)) {
    if (!STEP.test(name)) throw new UnifiedDefinitionError(`${where}: step name '${name}' must be an identifier`);
    step.dependsOn ??= [];
    if (!hasOperation(step.operation)) throw new UnifiedDefinitionError(`${where}: step '${name}' names unknown operation '${step.operation}'`);
    for (const dep of step.dependsOn) {
      if (!names.includes(dep)) throw new UnifiedDefinitionError(`${where}: step '${name}' depends on undeclared step '${dep}'`);
    }
    for (const ref of referencedSteps(step.input, `${where}: step '${name}' input`)) {
      if (!names.includes(ref)) throw new UnifiedDefinitionError(`${where}: step '${name}' input references undeclared step '${ref}'`);
      if (!dependsTransitively(def, name, ref)) {
        throw new UnifiedDefinitionError(`${where}: step '${name}' input reads step '${ref}' but does not depend on it`);
      }
    }
  }
  for (const ref of referencedSteps(def.mapOutput, `${where}: mapOutput`)) {
    if (!names.includes(ref)) throw new UnifiedDefinitionError(`${where}: mapOutput references undeclared step '${ref}'`);
  }
  const cycle = findCycle(def);
  if (cycle) throw new UnifiedDefinitionError(`${where}: steps form a cycle: ${cycle.join(' → ')}`);
  return def;
}

function dependsTransitively(def: UnifiedDefinition, from: string, to: string, seen = new Set<string>()): boolean {
  for (const dep of def.steps[from]?.dependsOn ?? []) {
    if (dep === to) return true;
    if (!seen.has(dep)) {
      seen.add(dep);
      if (dependsTransitively(def, dep, to, seen)) return true;
    }
  }
  return false;
}

function findCycle(def: UnifiedDefinition): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (name: string): string[] | null => {
    if (state.get(name) === 'done') return null;
    if (state.get(name) === 'visiting') return [...path.slice(path.indexOf(name)), name];
    state.set(name, 'visiting');
    path.push(name);
    for (const dep of def.steps[name]!.dependsOn) {
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(name, 'done');
    return null;
  };
  for (const name of Object.keys(def.steps)) {
    const cycle = visit(name);
    if (cycle) return cycle;
  }
  return null;
}

/** Every step a target needs, itself included. */
export function closureOf(def: UnifiedDefinition, target: string): Set<string> {
  const out = new Set<string>([target]);
  for (const dep of def.steps[target]?.dependsOn ?? []) for (const d of closureOf(def, dep)) out.add(d);
  return out;
}

/** The services a definition's steps call. */
export const servicesOf = (def: UnifiedDefinition): string[] =>
  [...new Set(Object.values(def.steps).map((s) => s.operation.slice(0, s.operation.indexOf('.'))))].sort();
