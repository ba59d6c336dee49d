// Unified operations (./operations.ts) over declared binding steps (./definitions.ts), and what a
// call of one takes and answers (./types.ts).
export { ABANDONED_AFTER_MS, IDEMPOTENCY_TTL_MS } from '../execution/index.ts';
export { closureOf, referencedSteps, servicesOf, UnifiedDefinitionError, validateDefinition, type UnifiedDefinition, type UnifiedStep } from './definitions.ts';
export { GENERATED_UNIFIED, UnifiedOperations } from './operations.ts';
export type { StepReport, StepStatus, UnifiedParams, UnifiedResult } from './types.ts';
