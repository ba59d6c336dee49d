// What a provider's 401 or 403 answer keeps: the fields that name the error, bounded. Those are the
// answers that quote the credential they refused ("key sk_live_… is invalid"), sometimes in a form
// no redaction recognises (masked, hashed, reversed); the rest of such a body (request echoes,
// headers, debug dumps) is dropped before anything reaches the caller.

/** Field names providers put their error's identity in (RFC 6749/6750, Problem Details, Google, Stripe, GitHub, Slack, Jira, Twilio, SOAP faults…). */
const ERROR_FIELDS = new Set([
  'ok',
  'error',
  'errors',
  'error_code',
  'errorCode',
  'error_description',
  'error_subcode',
  'errorMessages',
  'code',
  'status',
  'statusCode',
  'type',
  'title',
  'detail',
  'message',
  'reason',
  'field',
  'param',
  'parameter',
  'fault',
  'faultstring',
  'documentation_url',
  'doc_url',
  'more_info',
]);
/** Longest text kept of one string (a message), or of a body that is not JSON. */
export const REFUSAL_TEXT_MAX = 256;
/** Items kept of an array (`errors: [...]`), and how deep objects are followed. */
const MAX_ITEMS = 5;
const MAX_DEPTH = 3;

const cut = (text: string) => (text.length > REFUSAL_TEXT_MAX ? `${text.slice(0, REFUSAL_TEXT_MAX)}…` : text);

function keep(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return cut(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return undefined;
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => keep(item, depth + 1) ?? null);
  const kept: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    if (!ERROR_FIELDS.has(name)) continue;
    const v = keep(field, depth + 1);
    if (v !== undefined) kept[name] = v;
  }
  return kept;
}

/**
 * A 401/403 body as the envelope's `providerBody` carries it: of a JSON object, only the fields in
 * ERROR_FIELDS (followed MAX_DEPTH levels, MAX_ITEMS items per array, each string cut at
 * REFUSAL_TEXT_MAX characters); any other body, its first REFUSAL_TEXT_MAX characters.
 */
export const clipRefusalBody = (data: unknown): unknown => (typeof data === 'string' ? cut(data) : keep(data, 0) ?? null);
