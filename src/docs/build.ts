// Builds the docs index of the operations an MCP version selects. The work is kept per catalogue
// version (src/docs/analysis.ts, src/docs/rank.ts): another version over the same catalogue reuses it.
import type { Catalog } from '../catalog/index.ts';
import type { UnifiedDefinition } from '../unified/definitions.ts';
import type { AnalysisFiles } from './analysis-files.ts';
import { forgetAnalyses } from './analysis.ts';
import { DocsIndex } from './docs-index.ts';
import { type DocEntry, forgetEntries, physicalEntry, unifiedEntry } from './entries.ts';
import { forgetRankers } from './rank.ts';

/**
 * Forgets every kept entry, analysis and ranker, so the next build costs what it costs in a new
 * process: for benchmarks (an index is otherwise built once per catalogue version and reused).
 */
export function forgetDocsIndexCaches(): void {
  forgetEntries();
  forgetAnalyses();
  forgetRankers();
}

/** Builds the docs index of the operations a version selects (physical and Unified). */
export function buildDocsIndex(
  catalog: Catalog,
  services: ReadonlyMap<string, string>,
  operationIds: readonly string[],
  unified: readonly UnifiedDefinition[] = [],
  files?: AnalysisFiles,
): DocsIndex {
  const entries: DocEntry[] = [];
  const pagination = (operation: string) => {
    const service = operation.slice(0, operation.indexOf('.'));
    const version = services.get(service);
    return (version && catalog.operation(service, version, operation)?.pagination) || null;
  };
  const hints = (operation: string) => catalog.hints(operation, services);
  for (const def of unified) if (operationIds.includes(def.name)) entries.push(unifiedEntry(def, pagination, hints));
  for (const id of operationIds) {
    const service = id.slice(0, id.indexOf('.'));
    const version = services.get(service);
    const index = version ? catalog.get(service, version) : undefined;
    const op = version ? catalog.operation(service, version, id) : undefined;
    if (index && op) entries.push(physicalEntry(op, index));
  }
  return new DocsIndex(entries, files);
}
