// The authorization server's machine endpoints: token (RFC 6749 §3.2), registration (RFC 7591)
// and revocation (RFC 7009). They read their own bodies (x-raw routes), so every refusal, a body of
// the wrong type or size included, is an OAuth error a client can parse, never the envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import { OAuthError } from '../../oauth/index.ts';
import { retryAfterSeconds } from '../answers.ts';
import { clientAddress, trustedProxiesFor } from '../request-info.ts';
import type { HandlerResult, Handlers, ServerDeps } from '../types.ts';

/** A token, registration or revocation request is a few hundred bytes. */
const MAX_BODY_BYTES = 16 * 1024;
/** Clients one address may register per minute (each is a stored row). */
export const REGISTRATIONS_PER_MINUTE = 30;
const MINUTE_MS = 60_000;
/** Answers carry tokens: never cached (RFC 6749 §5.1). Browser-based clients may call these from any origin. */
const HEADERS = { 'cache-control': 'no-store', pragma: 'no-cache', 'access-control-allow-origin': '*' };

type Raw = { req: IncomingMessage; res: ServerResponse };

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.headersSent) return void res.end();
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { ...HEADERS, ...headers, ...(text ? { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) } : {}) });
  res.end(text);
}

/** The body as text, once its method and Content-Type are the ones the endpoint takes. */
async function bodyText(req: IncomingMessage, type: 'application/x-www-form-urlencoded' | 'application/json'): Promise<string> {
  if (req.method !== 'POST') throw new OAuthError('invalid_request', 'use POST');
  const given = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (given !== type) throw new OAuthError('invalid_request', `the body must be ${type}`);
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') throw new OAuthError('invalid_request', 'the body must not be compressed (Content-Encoding)');
  try {
    return await getRawBody(req, { limit: MAX_BODY_BYTES, encoding: 'utf8' });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') throw new OAuthError('invalid_request', `the body is larger than ${MAX_BODY_BYTES} bytes`);
    throw new OAuthError('invalid_request', 'the body could not be read');
  }
}

/** A form's fields; a field given twice is refused (RFC 6749 §3.2: parameters MUST NOT be included more than once). */
function formOf(text: string): Record<string, string | undefined> {
  const fields: Record<string, string> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    if (name in fields) throw new OAuthError('invalid_request', `${name} is given more than once`);
    fields[name] = value;
  }
  return fields;
}

export function oauthEndpointRoutes(deps: ServerDeps): Pick<Handlers, 'exchangeOAuthToken' | 'registerOAuthClient' | 'revokeOAuthToken'> {
  const trusted = trustedProxiesFor(deps.config.trustedProxies);
  /** Runs one endpoint: its OAuth refusals answered as RFC 6749 §5.2 bodies; anything else logged and answered server_error. */
  const endpoint = (what: string, handle: (raw: Raw) => Promise<{ status: number; body?: unknown; headers?: Record<string, string> }>) =>
    async ({ req, res }: Raw): Promise<HandlerResult> => {
      try {
        const { status, body, headers } = await handle({ req, res });
        send(res, status, body, headers);
      } catch (err) {
        if (err instanceof OAuthError) send(res, err.status, err.body);
        else {
          deps.log.error({ err, endpoint: what }, 'oauth endpoint failed');
          send(res, 500, { error: 'server_error', error_description: 'the Engine failed unexpectedly; the failure was logged' });
        }
      }
      return {}; // answered here (x-raw)
    };

  return {
    exchangeOAuthToken: endpoint('token', async ({ req }) => ({ status: 200, body: await deps.oauth.tokenEndpoint.exchange(formOf(await bodyText(req, 'application/x-www-form-urlencoded'))) })),

    revokeOAuthToken: endpoint('revoke', async ({ req }) => {
      await deps.oauth.revoke(formOf(await bodyText(req, 'application/x-www-form-urlencoded')));
      return { status: 200 };
    }),

    registerOAuthClient: endpoint('register', async ({ req }) => {
      const text = await bodyText(req, 'application/json');
      // Unauthenticated, and each registration stores a row: bounded per client address.
      const client = clientAddress(req, trusted);
      const hit = await deps.coordinator.hit(`oauth-register:${client}`, MINUTE_MS).catch(() => ({ count: 0, resetInMs: 0 }));
      if (hit.count > REGISTRATIONS_PER_MINUTE) {
        const err = new OAuthError('temporarily_unavailable', `more than ${REGISTRATIONS_PER_MINUTE} registrations a minute from this address; retry later`, 429);
        return { status: 429, body: err.body, headers: { 'retry-after': retryAfterSeconds(Math.max(1, hit.resetInMs)) } };
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new OAuthError('invalid_client_metadata', 'the body is not JSON');
      }
      return { status: 201, body: await deps.oauth.register(body) };
    }),
  };
}
