// Approvals of gated MCP calls (issue 31 §3). An MCP server's definition names operations whose
// calls wait for a person (`requireApproval`); a call of one stops its execute with an approval ID,
// a person approves it (`svc-cli mcp approve`, or the MCP client's elicitation), and the agent's
// re-run of the same call (same operation and params, same token) within the validity passes once.
// Kept in the store, so an approval given on one replica holds on every other.
import { EngineError } from '../envelope/index.ts';
import { requestHash } from '../execution/index.ts';
import { newApprovalId } from '../ids/index.ts';
import type { ApprovalCall, ApprovalRow, Store } from '../store/index.ts';
import { summarizeParams } from './summary.ts';

/** How long an approval may be given, and the re-run it lets through made, from the stop that asked for it. */
export const APPROVAL_TTL_MS = 15 * 60_000;

/** The most waiting approvals one list shows: a person reads them one by one. */
export const WAITING_LISTED = 100;

/** `details.reason` of the refusals below. */
export const APPROVAL_REQUIRED_REASON = 'approval_required';
export const APPROVAL_DECLINED_REASON = 'approval_declined';

/** What a stop tells the agent and the person of an approval. */
export const approvalView = (a: ApprovalRow) => ({ id: a.id, operation: a.operation, params: a.summary, expiresAt: a.expiresAt, approve: `svc-cli mcp approve ${a.id}` });

export const approvalRequired = (a: ApprovalRow) =>
  new EngineError('ENGINE_APPROVAL_REQUIRED', `call('${a.operation}') waits for a person's approval (${a.id}); nothing was sent. Once approved, run the same call again with this token before ${a.expiresAt}`, {
    details: { field: 'operation', reason: APPROVAL_REQUIRED_REASON, approval: approvalView(a) },
  });

export const approvalDeclined = (a: ApprovalRow) =>
  new EngineError('ENGINE_APPROVAL_DECLINED', `call('${a.operation}') was declined by the person asked to approve it; nothing was sent`, {
    details: { field: 'operation', reason: APPROVAL_DECLINED_REASON, approval: { id: a.id, operation: a.operation } },
  });

const notFound = (id: string) =>
  new EngineError('ENGINE_NOT_FOUND', `no approval ${id}; an approval ID comes from an execute that stopped with MCP_APPROVAL_REQUIRED`, { details: { field: 'approval_id' } });

export class Approvals {
  private readonly store: Store;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(store: Store, options: { ttlMs?: number; now?: () => number } = {}) {
    this.store = store;
    this.ttlMs = options.ttlMs ?? APPROVAL_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /** The call as approvals key it: its params (and pagination bound) by hash, so a changed call needs an approval of its own. */
  callOf(versionId: string, tokenId: string, operation: string, params: unknown, pagination: unknown): ApprovalCall {
    return { versionId, tokenId, operation, paramsHash: requestHash({ operation, params: params ?? {}, pagination: pagination ?? null }) };
  }

  /** Uses the call's approval, when a person gave one and it is still valid: it lets the call through, once. */
  take(call: ApprovalCall): Promise<ApprovalRow | null> {
    return this.store.approvals.use(call, new Date(this.now()).toISOString());
  }

  /**
   * Gives back an approval taken by a call that was never sent (the script ended first, or the call
   * was refused before dispatch: no connection, a rate limit): the same call may use it again.
   */
  async giveBack(taken: ApprovalRow): Promise<void> {
    if (taken.usedAt) await this.store.approvals.release(taken.id, taken.usedAt);
  }

  /** The call's approval waiting for a person: the one an earlier stop asked for, else a new one. */
  async request(call: ApprovalCall, params: unknown): Promise<ApprovalRow> {
    const at = this.now();
    const live = await this.store.approvals.live(call, new Date(at).toISOString());
    if (live) return live;
    const summary = summarizeParams(params ?? {});
    const row: ApprovalRow = {
      ...call,
      id: newApprovalId(),
      summary: summary !== null && typeof summary === 'object' && !Array.isArray(summary) ? (summary as Record<string, unknown>) : { params: summary },
      createdAt: new Date(at).toISOString(),
      expiresAt: new Date(at + this.ttlMs).toISOString(),
      approvedAt: null,
      approvedBy: null,
      usedAt: null,
    };
    await this.store.approvals.insert(row);
    return row;
  }

  /**
   * A person approves `id`. Approving one already approved (and unused) answers it again; one
   * unknown is 404, one expired or already used 409, each naming approval_id.
   */
  async approve(id: string, by: string): Promise<ApprovalRow> {
    const at = new Date(this.now()).toISOString();
    const approved = await this.store.approvals.approve(id, by, at);
    if (approved) return approved;
    const row = await this.store.approvals.get(id);
    if (!row) throw notFound(id);
    if (row.usedAt) throw new EngineError('ENGINE_CONFLICT', `approval ${id} was used at ${row.usedAt} by the call it approved; a new call asks for a new approval`, { details: { field: 'approval_id' } });
    if (row.expiresAt <= at) {
      throw new EngineError('ENGINE_CONFLICT', `approval ${id} expired at ${row.expiresAt}; run the execute again to ask for a new approval`, { details: { field: 'approval_id' } });
    }
    return row; // approved already, not used yet
  }

  /** The approvals still waiting for a person, newest first (at most WAITING_LISTED). */
  waiting(): Promise<ApprovalRow[]> {
    return this.store.approvals.waiting(new Date(this.now()).toISOString(), WAITING_LISTED);
  }

  async get(id: string): Promise<ApprovalRow> {
    return (await this.store.approvals.get(id)) ?? Promise.reject(notFound(id));
  }
}
