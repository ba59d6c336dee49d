// The fixed provider payload (~1 KB of compact JSON) shared by the provider and the load
// generator, which compares every response body with it.
import { isDeepStrictEqual } from 'node:util';
import type { LoadTarget } from '../lib/load.ts';

const contact = {
  id: 'con_0001',
  object: 'contact',
  name: 'Ada Lovelace',
  email: 'ada.lovelace@example.com',
  phone: '+44 20 7946 0958',
  company: { id: 'org_0042', name: 'Analytical Engines Ltd', domain: 'analytical-engines.example' },
  address: { line1: '12 St James Square', line2: null, city: 'London', postal_code: 'SW1Y 4JH', country: 'GB' },
  labels: { tier: 'gold', region: 'emea', source: 'referral', owner: 'usr_0007' },
  tags: ['mathematics', 'engines', 'early-adopter', 'newsletter'],
  lifecycle_stage: 'customer',
  lead_score: 87,
  do_not_contact: false,
  notes:
    'Prefers e-mail. Interested in the Difference Engine upgrade path and in bulk pricing for punched cards; follow up after the quarterly review. Asked for a reference from the Royal Society and for the note on Bernoulli numbers. Met at the 2024 London meetup; introduced by Charles B.',
  owner: { id: 'usr_0007', name: 'Mary Somerville', email: 'mary@example.com' },
  deal_ids: ['deal_0101', 'deal_0102', 'deal_0107'],
  created_at: '2024-03-01T09:30:00.000Z',
  updated_at: '2025-01-15T16:45:12.000Z',
};

/** Compact JSON, so the Engine's re-serialised `data` is byte-identical to it. */
export const CONTACT_BODY = JSON.stringify(contact);

const ENVELOPE_PREFIX = '{"ok":true,"status":200,';
const ENVELOPE_DATA = `"data":${CONTACT_BODY}`;

/** True when `text` is the Engine's success envelope around CONTACT_BODY (a byte check first, JSON as the fallback). */
export function isContactEnvelope(text: string): boolean {
  if (text.startsWith(ENVELOPE_PREFIX) && text.includes(ENVELOPE_DATA)) return true;
  try {
    const env = JSON.parse(text);
    return env?.ok === true && env.status === 200 && isDeepStrictEqual(env.data, contact);
  } catch {
    return false;
  }
}

/** The Engine request every REST bench sends: `demo-crm.contacts/get` of the fixed contact, checked against its envelope. */
export function contactExecution(name: string, origin: string, engine: { versionId: string; token: string }): LoadTarget {
  return {
    name,
    origin,
    method: 'POST',
    path: `/v1/apps/${engine.versionId}/executions`,
    headers: { authorization: `Bearer ${engine.token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ operation: 'demo-crm.contacts/get', input: { contact_id: 'con_0001' } }),
    check: (_status, text) => isContactEnvelope(text),
  };
}
