import type { SessionRecord } from '../retention/index.ts';

/** The session a tool call runs in: its ID keys the session's snapshots and session.set values. */
export interface McpSession extends SessionRecord {
  id: string;
}
