// Safety hints of an operation (issue 31 §3): `readOnly` (it reads, never changes data) and
// `destructive` (it deletes or overwrites), derived from the HTTP method and overridable per
// operation in the service's engine.yaml (`safety:`). Read-only tokens and approval gates read them.
import type { OperationSpec, ServiceIndex } from './types.ts';

export interface SafetyHints {
  readOnly: boolean;
  destructive: boolean;
}

/** What engine.yaml may declare for one operation; an absent hint keeps the derived one. */
export interface SafetyOverride {
  readOnly?: boolean;
  destructive?: boolean;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * From the method alone: GET, HEAD and OPTIONS read; DELETE destroys; POST, PUT and PATCH change
 * data without being called destructive (a PUT that replaces a whole resource is declared so).
 */
export function derivedHints(method: string): SafetyHints {
  const m = method.toUpperCase();
  return { readOnly: READ_METHODS.has(m), destructive: m === 'DELETE' };
}

/** The operation's hints: the method's, with what the service's policy declares for it on top. */
export function operationHints(index: Pick<ServiceIndex, 'safety'> | undefined, op: Pick<OperationSpec, 'method' | 'providerOperationId'>): SafetyHints {
  const derived = derivedHints(op.method);
  const declared = index?.safety && Object.hasOwn(index.safety, op.providerOperationId) ? index.safety[op.providerOperationId] : undefined;
  if (!declared) return derived;
  // Declaring one hint implies the other where they would contradict: read-only is never destructive.
  return {
    readOnly: declared.readOnly ?? (declared.destructive ? false : derived.readOnly),
    destructive: declared.destructive ?? (declared.readOnly ? false : derived.destructive),
  };
}

/** Hints of several operations run together (a Unified operation's targets): read-only only if every one is, destructive if any is. */
export function combinedHints(all: readonly SafetyHints[]): SafetyHints {
  return { readOnly: all.every((h) => h.readOnly), destructive: all.some((h) => h.destructive) };
}
