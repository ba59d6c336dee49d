// What a person approving a call is shown of its params: their shape, short values, and nothing that
// looks like a secret (a call's params never carry a provider credential, but an app's may, e.g. a
// password for a user it creates).

const SECRET_NAME = /pass(word)?|secret|token|api[-_]?key|auth|credential|private|signature|cookie/i;
const STRING_CHARS = 60;
const ARRAY_ITEMS = 5;
const DEPTH = 4;
const KEYS = 30;

export function summarizeParams(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > STRING_CHARS ? `${value.slice(0, STRING_CHARS).replace(/[\ud800-\udbff]$/, '')}… (${value.length} chars)` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= DEPTH) return Array.isArray(value) ? `[${value.length} items]` : '{…}';
  if (Array.isArray(value)) {
    const shown = value.slice(0, ARRAY_ITEMS).map((v) => summarizeParams(v, depth + 1));
    return value.length > ARRAY_ITEMS ? [...shown, `… ${value.length - ARRAY_ITEMS} more`] : shown;
  }
  const entries = Object.entries(value);
  const out: Record<string, unknown> = {};
  for (const [key, v] of entries.slice(0, KEYS)) out[key] = SECRET_NAME.test(key) ? '[redacted]' : summarizeParams(v, depth + 1);
  if (entries.length > KEYS) out['…'] = `${entries.length - KEYS} more keys`;
  return out;
}
