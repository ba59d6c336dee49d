// The operation catalog (./catalog.ts): bundled services and imported ones (./import.ts), each an
// index of normalised operations (./normalize.ts) with their input schemas and safety hints.
export * from './types.ts';
export { Catalog, GENERATED_CATALOG_DIR } from './catalog.ts';
export { type ImportAuth, type ImportInput } from './import.ts';
export { normalizeService } from './normalize.ts';
export { parsePolicy } from './policy.ts';
export { CatalogError, baseUrlProblem } from './problems.ts';
export { addInputFormats, inputSchemaOf } from './input-schema.ts';
export { combinedHints, derivedHints, operationHints, type SafetyHints, type SafetyOverride } from './safety.ts';
