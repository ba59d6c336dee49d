// Result retention for the MCP `execute` tool: per-session snapshots of oversized results, the
// MCP_RESULT_STORED envelope, collection discovery, session.page and session.get (docs/architecture.md,
// MCP results).
export {
  SNAPSHOT_LIMIT, SESSION_BYTES_LIMIT, SNAPSHOT_TTL_MS, MIN_OUTPUT_BUDGET, MAX_OUTPUT_BUDGET,
  RESULT_UNAVAILABLE_GUIDANCE, ROW_TOO_LARGE_GUIDANCE, RetentionError, type RetentionErrorCode,
} from './errors.ts';
export { DEFAULT_SESSION_IDLE_MS, MemorySessionStateStore, newResultRef, RESULT_REF, systemClock, type CallRef, type Clock, type OpenOutcome, type SessionCap, type SessionRecord, type SessionStateStore } from './store.ts';
export { discoverCollections, DISCOVERY_LIMITS, type CollectionDescriptor, type Discovery } from './discovery.ts';
export { pageOf, type Page, type PageOptions } from './page.ts';
export { storedEnvelope, previewOf, SAME_SESSION_STATEMENT, type NextRequest } from './envelope.ts';
export { sessionGet, sessionPage } from './session-reads.ts';
export { tracedSessionState } from './traced.ts';
