// `--expires`: 30m, 24h, 7d (from now), an ISO-8601 date-time, or `never`. Anything else is a
// usage error.
import { UsageError } from './errors.ts';

const RELATIVE = /^([1-9][0-9]{0,5})([mhd])$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Whether the date part names a real day: Date.parse moves 2027-02-30 to March 2 instead of refusing it. */
function isCalendarDate(value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The expiry as an ISO string, or null for `never`. */
export function parseExpires(text: string, now = Date.now()): string | null {
  const value = text.trim();
  if (value === 'never') return null;
  const relative = RELATIVE.exec(value);
  if (relative) return new Date(now + Number(relative[1]) * UNIT_MS[relative[2] as keyof typeof UNIT_MS]).toISOString();
  if (ISO_DATE_TIME.test(value)) {
    const at = Date.parse(value);
    if (Number.isNaN(at) || !isCalendarDate(value)) throw new UsageError(`--expires '${text}' is not a valid date-time`, 'use 30m, 24h, 7d, an ISO-8601 date-time or never');
    if (at <= now) throw new UsageError(`--expires '${text}' is in the past`, 'give a future date-time, or 30m, 24h, 7d, never');
    return new Date(at).toISOString();
  }
  throw new UsageError(`--expires '${text}' is not understood`, 'use 30m, 24h, 7d, an ISO-8601 date-time (2026-01-31T18:00:00Z) or never');
}

/**
 * `--expires` of a CLI credential as seconds from now: a duration or date-time up to `maxSeconds`
 * away; `never` is refused, as the credential grants full access.
 */
export function lifetimeSeconds(text: string, maxSeconds: number, now = Date.now()): number {
  const at = parseExpires(text, now);
  const max = `${Math.floor(maxSeconds / 86_400)}d`;
  if (at === null) throw new UsageError('--expires never is not allowed: a CLI credential grants full access, so it always expires', `give a lifetime of up to ${max}, e.g. 30d`);
  const seconds = Math.ceil((Date.parse(at) - now) / 1000);
  if (seconds > maxSeconds) throw new UsageError(`--expires '${text}' is more than ${max} away`, `give a lifetime of up to ${max}`);
  if (seconds < 60) throw new UsageError(`--expires '${text}' is less than a minute away`, 'give a lifetime of at least 1m, e.g. 30m, 24h or 30d');
  return seconds;
}
