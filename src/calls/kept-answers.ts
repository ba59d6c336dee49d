// What an idempotency key keeps of a physical call's answer, and the answer a replay gives back
// (src/execution/idempotency.ts holds the key semantics, shared with Unified operations).
import type { Envelope } from '../envelope/index.ts';
import type { CallResult, Continuation } from '../execution/index.ts';

/** A kept answer: the envelope (its data as the provider's JSON text when there was one) and what a surface needs to answer it again. */
interface KeptAnswer {
  envelope: Envelope;
  dataJson?: string;
  exactDetails?: Record<string, unknown>;
  continuation?: Continuation;
  providerAnswered: boolean;
  receiptId: string;
}

/**
 * The text to keep under the key, or null to release it so the key may be used again: when
 * nothing reached the provider, when the provider said it did not act (429), and when the outcome
 * is unknown but the provider got a key of its own (it recognises the repeat: src/execution/idempotency.ts).
 */
export function keptAnswer(result: CallResult): string | null {
  const { envelope } = result;
  const execution = envelope.error?.details?.provider_execution;
  if (!result.providerAnswered && (execution === 'not_started' || execution === undefined)) return null;
  if (result.providerAnswered && envelope.status === 429) return null;
  if (!result.providerAnswered && execution === 'unknown' && result.keyForwarded) return null;
  const spliced = result.dataJson !== undefined && envelope.ok;
  const kept: KeptAnswer = {
    // Not a spread: that would read `data`, and a provider's JSON is parsed only when read (src/execution/provider-answer.ts).
    envelope: spliced ? { ok: envelope.ok, status: envelope.status, data: null, error: envelope.error } : envelope,
    ...(spliced ? { dataJson: result.dataJson } : {}),
    ...(result.exactDetails ? { exactDetails: result.exactDetails } : {}),
    ...(result.continuation ? { continuation: result.continuation } : {}),
    providerAnswered: result.providerAnswered,
    receiptId: result.receiptId,
  };
  return JSON.stringify(kept);
}

/** A kept answer as the call's result again: nothing was sent, so no provider time and no new receipt. */
export function replayedResult(text: string): CallResult {
  const kept = JSON.parse(text) as KeptAnswer;
  const envelope = kept.dataJson === undefined ? kept.envelope : { ...kept.envelope, data: JSON.parse(kept.dataJson) };
  return {
    envelope,
    providerAnswered: kept.providerAnswered,
    receiptId: kept.receiptId,
    providerDurationMs: 0,
    dataJson: kept.dataJson,
    exactDetails: kept.exactDetails,
    continuation: kept.continuation,
    replayed: true,
  };
}
