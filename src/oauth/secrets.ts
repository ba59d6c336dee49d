// The authorization server's own secrets: codes, access and refresh tokens. Each is 256 random
// bits behind a prefix that says what it is (so a leaked one is recognised, and a bearer is told
// from a static `svc_mcp_` token without a lookup); only their SHA-256 is stored.
import { randomBytes } from 'node:crypto';

export const PREFIXES = { code: 'svc_oac_', access: 'svc_oat_', refresh: 'svc_ort_' } as const;
type SecretKind = keyof typeof PREFIXES;

export const newSecret = (kind: SecretKind) => PREFIXES[kind] + randomBytes(32).toString('base64url');

/** Whether `value` has the shape of a secret of `kind` (not whether it exists). */
export const isSecret = (kind: SecretKind, value: string | undefined): value is string =>
  value !== undefined && value.length === PREFIXES[kind].length + 43 && value.startsWith(PREFIXES[kind]) && /^[A-Za-z0-9_-]{43}$/.test(value.slice(PREFIXES[kind].length));
