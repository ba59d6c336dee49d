// The provider's OAuth endpoints: where they are when the workspace moves a service to another
// origin, and requests to them (token, revocation) over HTTP: a form POST with the client's
// credentials, bounded in time and size, and the answer read without repeating the provider's free text.
import { Agent, request, type Dispatcher } from 'undici';
import type { OAuth2Auth } from '../catalog/index.ts';
import { EgressRefusedError, egressConnector, type EgressPolicy } from '../egress/index.ts';
import type { OAuthClient } from './types.ts';

/** A whole token-endpoint request (connect, headers, body) ends within this. */
const TOKEN_REQUEST_TIMEOUT_MS = 10_000;
/** An OAuth error code as RFC 6749 §5.2 names them (invalid_grant, …): never free text, which could carry anything. */
export const OAUTH_ERROR_CODE = /^[a-z_]{1,40}$/;
/** Largest token-endpoint answer read; a token answer is a few KB, so more is refused, not buffered. */
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;
/** Longest access-token lifetime believed (ten years); anything else counts as unknown. */
const MAX_EXPIRES_IN_S = 10 * 365 * 24 * 3600;

/** The connections to OAuth endpoints: only to addresses the egress policy admits (src/egress), checked when each opens. */
export const endpointAgent = (egress: EgressPolicy): Dispatcher => new Agent({ connect: egressConnector(egress, { timeoutMs: TOKEN_REQUEST_TIMEOUT_MS }) });

/** An endpoint of the service's OAuth entry (authorization, token, revocation): relative ones are resolved against its base URL. */
export const endpoint = (url: string, baseUrl: string) => new URL(url, baseUrl + '/');

/** What an OAuth endpoint answered to a form POST; `failed` when nothing usable came back (status null: no answer at all). */
type FormAnswer = { status: number; text: string } | { status: number; failed: string } | { status: null; failed: string };

/** A JSON object answer, or {} for anything else. */
export const jsonObject = (text: string): Record<string, unknown> => {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    /* not JSON: reported by status */
  }
  return {};
};

/** Only an RFC 6749 error code is repeated: free text from the provider could carry anything, a secret included. */
export const errorCode = (body: Record<string, unknown>, status: number) => (typeof body.error === 'string' && OAUTH_ERROR_CODE.test(body.error) ? body.error : `HTTP ${status}`);

/**
 * Whether a refused refresh means the refresh token itself is dead, so the end user must consent
 * again: RFC 6749's invalid_grant (GitHub's bad_refresh_token), or a 400 naming no error. Not an
 * invalid_client (the workspace's OAuth client: fixed by the operator, then refreshes work again),
 * nor a rate limit or a server error.
 */
export const refreshTokenDead = (answer: { status: number; error: string }) =>
  answer.error === 'invalid_grant' || answer.error === 'bad_refresh_token' || (answer.status === 400 && answer.error === 'HTTP 400');

/** Asks the token endpoint for tokens (`params` names the grant); the answer, or why there is none. */
export async function tokenRequest(agent: Dispatcher, oauth: OAuth2Auth, baseUrl: string, client: OAuthClient, params: Record<string, string>) {
  const answer = await postForm(agent, endpoint(oauth.tokenUrl, baseUrl), client, params, 'token endpoint', oauth.clientAuth);
  if ('failed' in answer) return { ok: false as const, status: 502, error: answer.failed };
  const body = jsonObject(answer.text);
  if (answer.status !== 200 || typeof body.access_token !== 'string') return { ok: false as const, status: answer.status, error: errorCode(body, answer.status) };
  // Some providers send expires_in as a string of digits.
  const seconds = typeof body.expires_in === 'string' && /^\d{1,10}$/.test(body.expires_in) ? Number(body.expires_in) : body.expires_in;
  const expiresIn = typeof seconds === 'number' && seconds > 0 && seconds <= MAX_EXPIRES_IN_S ? seconds : null;
  return {
    ok: true as const,
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
    expiresAt: expiresIn === null ? null : new Date(Date.now() + expiresIn * 1000).toISOString(),
  };
}

/**
 * POSTs a form through `agent` (endpointAgent) to one of the provider's OAuth endpoints (`what` names it in failures) with the
 * client's credentials, within TOKEN_REQUEST_TIMEOUT_MS, reading at most MAX_TOKEN_RESPONSE_BYTES.
 * The credentials go in the form, or as HTTP Basic when the provider asks for it (`clientAuth`:
 * RFC 6749 §2.3.1, each part form-encoded first; Zoom accepts nothing else).
 */
export async function postForm(agent: Dispatcher, url: URL, client: OAuthClient, params: Record<string, string>, what: string, clientAuth: OAuth2Auth['clientAuth'] = 'body'): Promise<FormAnswer> {
  const form = (text: string) => new URLSearchParams({ x: text }).toString().slice(2);
  const basic = clientAuth === 'basic' ? { authorization: `Basic ${Buffer.from(`${form(client.clientId)}:${form(client.clientSecret)}`).toString('base64')}` } : {};
  try {
    const res = await request(url.href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...basic },
      body: new URLSearchParams(clientAuth === 'basic' ? params : { ...params, client_id: client.clientId, client_secret: client.clientSecret }).toString(),
      headersTimeout: TOKEN_REQUEST_TIMEOUT_MS,
      bodyTimeout: TOKEN_REQUEST_TIMEOUT_MS,
      signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
      dispatcher: agent,
    });
    const tooLarge = { status: res.statusCode, failed: `${what} answered more than ${MAX_TOKEN_RESPONSE_BYTES} bytes` };
    if (Number(res.headers['content-length']) > MAX_TOKEN_RESPONSE_BYTES) {
      res.body.destroy();
      return tooLarge;
    }
    let received = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) {
      received += (chunk as Buffer).length;
      if (received > MAX_TOKEN_RESPONSE_BYTES) {
        res.body.destroy();
        return tooLarge;
      }
      chunks.push(chunk as Buffer);
    }
    return { status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') };
  } catch (err) {
    if (err instanceof EgressRefusedError) return { status: null, failed: `${what} not called: ${err.message}` };
    const code = (err as { code?: unknown; cause?: { code?: unknown } }).code ?? (err as { cause?: { code?: unknown } }).cause?.code;
    return { status: null, failed: `${what} unreachable (${typeof code === 'string' ? code : (err as Error).name})` };
  }
}

/**
 * The OAuth endpoints of a service whose engine.yaml says they follow its base URL
 * (`followsBaseUrl`), when the workspace points it at another origin: an absolute endpoint keeps
 * its path and query and moves to that origin, as a relative one already does
 * (docs/guides/providers.md).
 */
export function followOverride(oauth: OAuth2Auth, origin: string): OAuth2Auth {
  const moved = (url: string) => {
    if (!URL.canParse(url)) return url; // relative: resolved against the base URL already
    const parsed = new URL(url);
    return origin + parsed.pathname + parsed.search;
  };
  return {
    ...oauth,
    authorizationUrl: moved(oauth.authorizationUrl),
    tokenUrl: moved(oauth.tokenUrl),
    ...(oauth.revocationUrl === undefined ? {} : { revocationUrl: moved(oauth.revocationUrl) }),
  };
}
