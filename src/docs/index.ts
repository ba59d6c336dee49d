// search_docs: intent search, exact lookup and browse over the operations an MCP version selects
// (src/docs/docs-index.ts), built by src/docs/build.ts.
export { AnalysisFiles } from './analysis-files.ts';
export { DocsError, RESPONSE_LIMIT_BYTES } from './answers.ts';
export { buildDocsIndex, forgetDocsIndexCaches } from './build.ts';
export { DEFAULT_LIMIT, DocsIndex, MAX_LIMIT, type SearchArgs } from './docs-index.ts';
export { type DocEntry, unifiedEntry } from './entries.ts';
