// What a Unified call takes and answers: its params, and a result that says which steps ran and how.
import type { Envelope } from '../envelope/index.ts';
import { type Continuation, type Selectors } from '../execution/index.ts';

export interface UnifiedParams {
  input: unknown;
  targets: string[];
  selectors?: Record<string, Selectors>;
  pagination?: Record<string, unknown>;
  idempotencyKey?: string;
}

export type StepStatus = 'succeeded' | 'failed' | 'refused' | 'skipped';

export interface StepReport {
  target: string;
  operation: string;
  status: StepStatus;
  /** HTTP status of the step's envelope (the provider's when it answered); null when skipped. */
  httpStatus: number | null;
  /** Time the step spent waiting on its provider, in milliseconds (0 when nothing was dispatched). */
  providerDurationMs: number;
  /** Whether a provider request may have left the Engine for this step. */
  dispatched: boolean;
  error?: { code: string; message: string };
  /**
   * Set when the step's caller bound (`pagination.<target>.maxPages`) ended the traversal before
   * the provider's last page: the mapped output holds only the pages read. `input` is what to pass
   * the step's operation to read on (cursor, page and offset styles).
   */
  continuation?: Continuation;
}

export interface UnifiedResult {
  envelope: Envelope;
  /**
   * The REST status of this answer (docs/architecture.md, the result envelope): 200 when a provider answered any step, else the
   * envelope's status. A replay carries the first call's, so it answers exactly as that call did.
   */
  httpStatus: number;
  providerAnswered: boolean;
  /** Any step may have reached a provider. */
  dispatched: boolean;
  /** The result came from an earlier call with the same idempotency key. */
  replayed: boolean;
  /** When the failed step was refused by the token's rate limit: how long until it may run (REST's Retry-After). */
  retryAfterMs?: number;
}
