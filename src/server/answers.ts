// Answers more than one route file gives: an HTML page, and a Retry-After header.
import { PAGE_HEADERS } from './pages.ts';
import type { HandlerResult } from './types.ts';

export const html = (body: string, status = 200): HandlerResult => ({ status, type: 'text/html; charset=utf-8', headers: PAGE_HEADERS, body });

/** Retry-After in whole seconds, at least 1. */
export const retryAfterSeconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

/** Retry-After of a rate-limited refusal that says how long to wait, else undefined. */
export function retryAfterOf(envelope: { error: { code: string; details?: Record<string, unknown> } | null }): string | undefined {
  const ms = envelope.error?.code === 'ENGINE_RATE_LIMITED' ? Number(envelope.error.details?.retry_after_ms) : NaN;
  return Number.isFinite(ms) ? retryAfterSeconds(ms) : undefined;
}
