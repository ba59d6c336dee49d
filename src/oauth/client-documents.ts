// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document-00, the MCP 2025-11-25
// default): a client whose client_id is an https URL publishes its metadata there, and the Engine
// fetches it. The URL comes from anyone, so the fetch takes the care a provider call takes: the
// egress policy checks the address each connection opens (src/egress: never link-local or cloud
// metadata, private and loopback ranges only when SVC_EGRESS_ALLOW lists them), and the request is
// bounded in time and size (src/connections/oauth-endpoints.ts), follows no redirect to another
// origin, and takes JSON only.
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { egressConnector, egressFailure, type EgressPolicy } from '../egress/index.ts';
import { OAuthError } from './errors.ts';
import { redirectUriProblem } from './redirect-uris.ts';
import type { ClientMetadata } from './types.ts';

/** The draft's §6.5 suggests 5 KB; a document is a few hundred bytes. */
export const MAX_DOCUMENT_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_REDIRECTS = 3;
/** A document is kept at most this long, whatever its Cache-Control says. */
const MAX_CACHE_MS = 60 * 60 * 1000;
const CACHE_ENTRIES = 256;
const MAX_REDIRECT_URIS = 20;
const MAX_NAME = 200;

export interface ClientDocumentOptions {
  /** The addresses the Engine may connect to (the one policy of provider calls). */
  egress: EgressPolicy;
  /** Tests only: http://127.0.0.1, http://[::1] and http://localhost client IDs are fetched too (still under the egress policy). */
  allowLoopbackHttp: boolean;
}

export class ClientDocuments {
  private readonly agent: Agent;
  private readonly egress: EgressPolicy;
  private readonly allowLoopbackHttp: boolean;
  private readonly cache = new Map<string, { metadata: ClientMetadata; until: number }>();

  constructor(options: ClientDocumentOptions) {
    this.allowLoopbackHttp = options.allowLoopbackHttp;
    this.egress = options.egress;
    this.agent = new Agent({ connect: egressConnector(options.egress, { timeoutMs: FETCH_TIMEOUT_MS }), connections: 16, keepAliveTimeout: 1_000 });
  }

  async close() {
    await this.agent.close();
  }

  /** Whether a client_id names a metadata document (a URL) rather than a registered client. */
  isDocumentId(clientId: string): boolean {
    return clientId.startsWith('https://') || (this.allowLoopbackHttp && clientId.startsWith('http://'));
  }

  /** The client's metadata from its document (cached as its Cache-Control allows); invalid_client when it cannot be used. */
  async metadata(clientId: string): Promise<ClientMetadata> {
    const cached = this.cache.get(clientId);
    if (cached && cached.until > Date.now()) return cached.metadata;
    this.cache.delete(clientId);
    const refuse = (why: string) => new OAuthError('invalid_client', `client_id ${clientId}: ${why}`);
    const url = this.checkedUrl(clientId, refuse);
    const { text, maxAgeMs } = await this.fetchDocument(url, refuse);
    const metadata = documentMetadata(clientId, text, refuse);
    if (maxAgeMs > 0) {
      if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(clientId, { metadata, until: Date.now() + Math.min(maxAgeMs, MAX_CACHE_MS) });
    }
    return metadata;
  }

  /** The draft's §3 rules for a client ID URL, and this Engine's: no private address literal. */
  private checkedUrl(clientId: string, refuse: (why: string) => OAuthError): URL {
    let url: URL;
    try {
      url = new URL(clientId);
    } catch {
      throw refuse('is not a URL');
    }
    const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.allowLoopbackHttp && loopback)) throw refuse('a client ID URL must use https');
    if (clientId.includes('#')) throw refuse('a client ID URL must not have a fragment');
    if (url.username || url.password) throw refuse('a client ID URL must not hold a user name or password');
    const rawPath = clientId.slice(clientId.indexOf('//') + 2).replace(/^[^/?]*/, '').split('?')[0]!;
    if (rawPath === '' || rawPath === '/') throw refuse('a client ID URL must have a path (e.g. https://app.example.com/oauth/client.json)');
    if (rawPath.split('/').some((s) => /^(\.|%2e){1,2}$/i.test(s))) throw refuse('a client ID URL must not have . or .. path segments');
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && this.egress.refusal(literal)) throw refuse(`a client ID URL must not name ${literal}, an address the Engine does not connect to`);
    return url;
  }

  /** GETs the document, following at most MAX_REDIRECTS redirects within its origin. */
  private async fetchDocument(start: URL, refuse: (why: string) => OAuthError): Promise<{ text: string; maxAgeMs: number }> {
    let url = start;
    for (let hops = 0; ; hops++) {
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(url, {
          dispatcher: this.agent,
          method: 'GET',
          headers: { accept: 'application/json' },
          headersTimeout: FETCH_TIMEOUT_MS,
          bodyTimeout: FETCH_TIMEOUT_MS,
          signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        });
      } catch (err) {
        const refused = egressFailure(err);
        if (refused) throw refuse(`the client metadata document is not fetched: ${refused.message}`);
        const code = (err as { code?: unknown; cause?: { code?: unknown } }).code ?? (err as { cause?: { code?: unknown } }).cause?.code;
        throw refuse(`the client metadata document is unreachable (${typeof code === 'string' ? code : (err as Error).name})`);
      }
      /** Drops the rest of an answer not read (at most undici's dump limit, within the timeout). */
      const drop = () => res.body.dump().catch(() => undefined);
      if (res.statusCode >= 300 && res.statusCode < 400) {
        await drop();
        const location = res.headers.location;
        const next = typeof location === 'string' && URL.canParse(location, url.href) ? new URL(location, url) : undefined;
        if (!next) throw refuse(`the client metadata document answered HTTP ${res.statusCode} without a usable Location`);
        if (next.origin !== start.origin) throw refuse('the client metadata document redirects to another host');
        if (hops >= MAX_REDIRECTS) throw refuse(`the client metadata document redirects more than ${MAX_REDIRECTS} times`);
        url = next;
        continue;
      }
      if (res.statusCode !== 200) {
        await drop();
        throw refuse(`the client metadata document answered HTTP ${res.statusCode}`);
      }
      const type = String(res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
        await drop();
        throw refuse(`the client metadata document must be application/json (it is '${type || 'untyped'}')`);
      }
      const tooLarge = () => refuse(`the client metadata document is larger than ${MAX_DOCUMENT_BYTES} bytes`);
      if (Number(res.headers['content-length']) > MAX_DOCUMENT_BYTES) {
        await drop();
        throw tooLarge();
      }
      const chunks: Buffer[] = [];
      let received = 0;
      try {
        // Leaving the loop early (break) ends the body's stream.
        for await (const chunk of res.body) {
          received += (chunk as Buffer).length;
          if (received > MAX_DOCUMENT_BYTES) break;
          chunks.push(chunk as Buffer);
        }
      } catch {
        throw refuse('the client metadata document could not be read in full');
      }
      if (received > MAX_DOCUMENT_BYTES) throw tooLarge();
      return { text: Buffer.concat(chunks).toString('utf8'), maxAgeMs: maxAgeOf(res.headers['cache-control']) };
    }
  }
}

/** How long Cache-Control lets the document be kept, in ms (0: not at all). */
function maxAgeOf(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (/(^|,)\s*(no-store|no-cache)\b/i.test(value)) return 0;
  const age = /(^|,)\s*max-age\s*=\s*"?(\d{1,10})"?/i.exec(value);
  return age ? Number(age[2]) * 1000 : 0;
}

/** The draft's §4 checks of a fetched document, and MCP's required fields (client_id, client_name, redirect_uris). */
function documentMetadata(clientId: string, text: string, refuse: (why: string) => OAuthError): ClientMetadata {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw refuse('the client metadata document is not JSON');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw refuse('the client metadata document is not a JSON object');
  const d = doc as Record<string, unknown>;
  if (d.client_id !== clientId) throw refuse("the client metadata document's client_id is not its own URL");
  if ('client_secret' in d || 'client_secret_expires_at' in d) throw refuse('the client metadata document must not hold a client_secret');
  if (d.token_endpoint_auth_method !== undefined && d.token_endpoint_auth_method !== 'none') {
    throw refuse("token_endpoint_auth_method must be 'none' (this Engine takes public clients with PKCE)");
  }
  if (d.grant_types !== undefined && !(Array.isArray(d.grant_types) && d.grant_types.includes('authorization_code'))) throw refuse('grant_types must include authorization_code');
  if (d.response_types !== undefined && !(Array.isArray(d.response_types) && d.response_types.includes('code'))) throw refuse('response_types must include code');
  const name = clientName(d.client_name);
  if (name === undefined) throw refuse(`client_name must be text of 1 to ${MAX_NAME} characters`);
  if (!Array.isArray(d.redirect_uris) || d.redirect_uris.length === 0 || d.redirect_uris.length > MAX_REDIRECT_URIS) {
    throw refuse(`redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`);
  }
  for (const [i, uri] of d.redirect_uris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) throw refuse(`redirect_uris[${i}] ${problem}`);
  }
  return { clientId, clientName: name, redirectUris: d.redirect_uris as string[], source: 'document' };
}

/** A display name: 1 to MAX_NAME characters with no control characters; undefined otherwise. */
export function clientName(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  return name.length >= 1 && name.length <= MAX_NAME && !/[\p{Cc}\p{Cs}]/u.test(name) ? name : undefined;
}
