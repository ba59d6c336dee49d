// OAuth 2.0 connections per end user: authorization-code consent with PKCE, tokens sealed at
// rest, and Engine-side refresh ahead of expiry, single-flight per connection. A refresh that
// the provider refuses marks the connection as needing re-authorisation.
//
// Single flight across replicas, in three layers:
//   1. in this process, concurrent callers of one connection share one pending refresh;
//   2. across processes, that refresh runs under the lock `oauth-refresh:<connection id>` of the
//      Coordinator (Redis with REDIS_URL, else in-process). After taking it, the row is read again:
//      when another replica refreshed meanwhile (a new generation), its token is used as it is.
//      Callers that find the lock held poll the row with backoff until the holder's tokens appear,
//      for at most `refreshWaitMs`, then fail with a retryable ENGINE_CREDENTIAL_REFRESH_FAILED;
//   3. the write is fenced: new tokens (or needs_reauth) are stored only while the row still has the
//      generation that was read (a compare-and-swap in the Store), so a holder whose lock expired
//      under it cannot overwrite newer tokens, and then uses those instead.
//
// Deleting a connection forgets it here first, always, then asks the provider to revoke the grant
// (RFC 7009) when the service declares a revocation endpoint; the answer says whether it confirmed.
import { createHash, randomBytes } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { Catalog, OAuth2Auth } from '../catalog/index.ts';
import { DEFAULT_BUCKET, originMoved, type SecretVault } from '../credentials/index.ts';
import { LocalCoordinator, type Coordinator, type Lock } from '../coordination/index.ts';
import { EgressPolicy } from '../egress/index.ts';
import { EngineError } from '../envelope/index.ts';
import { hashToken, newTokenId } from '../ids/index.ts';
import type { Logger } from '../log/index.ts';
import { metrics } from '../metrics/index.ts';
import type { ConnectionRow, Store } from '../store/index.ts';
import type { Workspace } from '../workspace/index.ts';
import { connectCommand, connectionLabel, goneDuringCall, needsReauth } from './messages.ts';
import { endpoint, endpointAgent, errorCode, followOverride, jsonObject, postForm, refreshTokenDead, tokenRequest } from './oauth-endpoints.ts';
import { DEFAULT_AUTH_NAME, type ConnectionView, type OAuthClient, type Revocation, type TokenSet } from './types.ts';
import { oauthClientKey, sealContext } from './vault-entries.ts';

const STATE_TTL_MS = 10 * 60 * 1000;
/** Refresh this long before the access token expires. */
const REFRESH_SKEW_MS = 60 * 1000;
/** How long a refresh lock lives: well past one token request and the reads and write around it. */
export const REFRESH_LOCK_TTL_MS = 30_000;
/** Default bound on waiting for another replica's refresh. */
export const REFRESH_WAIT_MS = 15_000;
const WAIT_FIRST_DELAY_MS = 20;
const WAIT_MAX_DELAY_MS = 250;

const view = (row: ConnectionRow): ConnectionView => ({
  id: row.id,
  service: row.service,
  endUserRef: row.endUserRef,
  authName: row.authName,
  status: row.status,
  accessExpiresAt: row.accessExpiresAt,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  consentedAt: row.consentedAt,
});

/**
 * Whether the access token should be refreshed before use: within a minute of its expiry, or
 * within half its lifetime for one that lives two minutes or less (a 30-second token would
 * otherwise be refreshed on every call). The lifetime runs from when the tokens were written.
 */
const due = (row: ConnectionRow) => {
  if (row.accessExpiresAt === null) return false;
  const expires = Date.parse(row.accessExpiresAt);
  const lifetime = expires - Date.parse(row.updatedAt);
  const margin = lifetime > 0 ? Math.min(REFRESH_SKEW_MS, lifetime / 2) : REFRESH_SKEW_MS;
  return expires - margin <= Date.now();
};

export class Connections {
  private readonly store: Store;
  private readonly vault: SecretVault;
  private readonly catalog: Catalog;
  private readonly workspace: Workspace;
  private readonly log: Logger;
  /** Where the provider sends the end user back after consent (the redirect URI registered with it). */
  readonly callbackUrl: () => string;
  private readonly coordinator: Coordinator;
  private readonly refreshWaitMs: number;
  private readonly refreshing = new Map<string, Promise<TokenSet>>();
  /** HTTP connections to the provider's OAuth endpoints. */
  private readonly endpoints: Dispatcher;

  constructor(deps: {
    store: Store;
    vault: SecretVault;
    catalog: Catalog;
    workspace: Workspace;
    log: Logger;
    callbackUrl: () => string;
    /** Refresh locks across replicas (default: within this process). */
    coordinator?: Coordinator;
    /** Longest a caller waits for another replica's refresh (default REFRESH_WAIT_MS). */
    refreshWaitMs?: number;
    /** Which addresses token and revocation endpoints may be reached at (default: no private or loopback one). */
    egress?: EgressPolicy;
  }) {
    this.store = deps.store;
    this.vault = deps.vault;
    this.catalog = deps.catalog;
    this.workspace = deps.workspace;
    this.log = deps.log;
    this.callbackUrl = deps.callbackUrl;
    this.coordinator = deps.coordinator ?? new LocalCoordinator();
    this.refreshWaitMs = deps.refreshWaitMs ?? REFRESH_WAIT_MS;
    this.endpoints = endpointAgent(deps.egress ?? new EgressPolicy());
  }

  private async provider(service: string): Promise<{ oauth: OAuth2Auth; baseUrl: string; origin: string }> {
    const enabled = await this.workspace.get(service);
    if (!enabled) throw new EngineError('ENGINE_NOT_FOUND', `service '${service}' is not enabled in the workspace`, { details: { field: 'service' } });
    await this.catalog.ensure(service, enabled.version); // another replica may have imported it
    const index = this.catalog.get(service, enabled.version);
    if (!index) throw new EngineError('ENGINE_CONFLICT', `service '${service}' ${enabled.version} is enabled but not in this Engine's catalog`, { details: { field: 'service' } });
    const oauth = index.auth.find((a): a is OAuth2Auth => a.type === 'oauth2');
    if (!oauth) throw new EngineError('ENGINE_INVALID_INPUT', `service '${service}' has no OAuth 2.0 auth; use \`svc-cli secret set ${service}\``, { details: { field: 'service' } });
    const moved = oauth.followsBaseUrl === true && URL.canParse(index.baseUrl) && new URL(index.baseUrl).origin !== enabled.origin;
    return { oauth: moved ? followOverride(oauth, enabled.origin) : oauth, baseUrl: enabled.baseUrl, origin: enabled.origin };
  }

  /** The service's OAuth client, when it was set for `origin` (the client secret goes to its token endpoint). */
  private async client(service: string, origin: string): Promise<OAuthClient> {
    const again = `svc-cli secret set ${service} --oauth-client-id <id> --value-stdin`;
    const sealed = await this.vault.get(DEFAULT_BUCKET, oauthClientKey(service));
    if (!sealed) throw new EngineError('ENGINE_CREDENTIAL_MISSING', `no OAuth client is set for '${service}'; run \`${again}\``);
    if (sealed.origin !== origin) throw originMoved(`the OAuth client for '${service}'`, sealed.origin, origin, again);
    return JSON.parse(sealed.value) as OAuthClient;
  }

  async setClient(service: string, client: OAuthClient): Promise<void> {
    const { origin } = await this.provider(service);
    await this.vault.set(DEFAULT_BUCKET, oauthClientKey(service), JSON.stringify(client), origin);
  }

  /** Deletes the service's OAuth client; false when none was set. Issued access tokens work until they expire. */
  deleteClient(service: string): Promise<boolean> {
    return this.vault.delete(DEFAULT_BUCKET, oauthClientKey(service));
  }

  /** Starts consent for an end user: returns the provider's authorization URL to open. */
  async start(service: string, endUserRef: string, authName = DEFAULT_AUTH_NAME): Promise<{ authorizeUrl: string; expiresAt: string }> {
    const { oauth, baseUrl, origin } = await this.provider(service);
    const client = await this.client(service, origin);
    const state = randomBytes(32).toString('base64url');
    const verifier = randomBytes(32).toString('base64url');
    const now = Date.now();
    const expiresAt = new Date(now + STATE_TTL_MS).toISOString();
    await this.store.insertOAuthState({
      hash: hashToken(state),
      service,
      endUserRef,
      authName,
      // The origin consent starts at is sealed with the verifier: the code comes back only to it.
      verifier: this.vault.seal(`oauth-state/${service}`, `${origin}\0${verifier}`),
      createdAt: new Date(now).toISOString(),
      expiresAt,
    });
    const url = endpoint(oauth.authorizationUrl, baseUrl);
    // Parameters the provider's authorization URL already carries (an `audience`, a `prompt`) are kept.
    const params = {
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: this.callbackUrl(),
      state,
      scope: oauth.scopes.join(oauth.scopeSeparator ?? ' '),
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return { authorizeUrl: url.href, expiresAt };
  }

  /** Finishes consent: exchanges the code and stores the connection. */
  async complete(code: string, state: string): Promise<ConnectionView> {
    const row = await this.store.takeOAuthState(hashToken(state));
    if (!row || Date.parse(row.expiresAt) <= Date.now()) {
      throw new EngineError('ENGINE_INVALID_INPUT', 'this consent link is unknown or expired; run `svc-cli connection create` again', { details: { field: 'state' } });
    }
    const sealed = this.vault.open(`oauth-state/${row.service}`, row.verifier);
    const cut = sealed.indexOf('\0');
    const { oauth, baseUrl, origin } = await this.provider(row.service);
    // The authorization code was issued at the origin consent started at: it goes nowhere else.
    const startedAt = cut < 0 ? null : sealed.slice(0, cut);
    if (startedAt !== origin) {
      throw originMoved(`the consent of '${row.endUserRef}'`, startedAt, origin, connectCommand(row));
    }
    const verifier = sealed.slice(cut + 1);
    const client = await this.client(row.service, origin);
    const answer = await tokenRequest(this.endpoints, oauth, baseUrl, client, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.callbackUrl(),
      code_verifier: verifier,
    });
    if (!answer.ok) {
      throw new EngineError('ENGINE_CREDENTIAL_REFRESH_FAILED', `${row.service} refused the authorization code (${answer.error})`);
    }
    const now = new Date().toISOString();
    const existing = await this.store.getConnection(row.service, row.endUserRef, row.authName);
    const key = { service: row.service, endUserRef: row.endUserRef, authName: row.authName };
    await this.store.putConnection({
      id: existing?.id ?? newTokenId().replace('tok_', 'con_'),
      ...key,
      tokens: this.vault.seal(sealContext(key), JSON.stringify({ accessToken: answer.accessToken, refreshToken: answer.refreshToken, origin } satisfies TokenSet)),
      status: 'active',
      accessExpiresAt: answer.expiresAt,
      generation: 0,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
      // Only a completed consent writes this (a refresh writes updatedAt): `svc-cli connection create` waits for it to change.
      consentedAt: now,
    });
    return view((await this.store.getConnection(row.service, row.endUserRef, row.authName))!);
  }

  async list(service?: string): Promise<ConnectionView[]> {
    return (await this.store.listConnections(service)).map(view);
  }

  /**
   * Forgets a connection and its tokens, then asks the provider to revoke its grant: what it was and
   * whether the provider confirmed, or null when there is none. The connection is gone either way.
   */
  async delete(id: string): Promise<{ connection: ConnectionView; revocation: Revocation } | null> {
    const row = await this.store.deleteConnection(id);
    if (!row) return null;
    const revocation = await this.revoke(row);
    if (!revocation.revoked && revocation.reason !== 'not_supported') {
      this.log.warn({ service: row.service, connection: row.id, reason: revocation.reason, detail: revocation.message }, 'oauth revocation not confirmed');
    }
    return { connection: view(row), revocation };
  }

  /**
   * RFC 7009: revokes a deleted connection's grant at the provider, with its refresh token (else its
   * access token): `known` when the caller holds them, else the stored ones (or a refresh's in flight).
   */
  private async revoke(row: ConnectionRow, known?: TokenSet): Promise<Revocation> {
    const notAttempted = (message: string): Revocation => ({ revoked: false, reason: 'not_attempted', message });
    let provider: Awaited<ReturnType<Connections['provider']>>;
    try {
      provider = await this.provider(row.service);
    } catch (err) {
      return notAttempted(err instanceof EngineError ? err.message : `the ${row.service} service could not be read`);
    }
    const { oauth, baseUrl, origin } = provider;
    if (oauth.revocationUrl === undefined) {
      return { revoked: false, reason: 'not_supported', message: `${row.service} declares no token revocation endpoint; revoke the grant in the provider's settings` };
    }
    let tokens: TokenSet;
    try {
      // A refresh in flight here spends the stored refresh token: the one it got instead is the live one.
      let refreshed: TokenSet | undefined;
      const inFlight = known ? undefined : this.refreshing.get(row.id);
      if (inFlight) {
        try {
          refreshed = await inFlight;
        } catch (err) {
          // It found the connection deleted and revoked what it got itself: that was the live grant.
          const revocation = (err as { revocation?: Revocation }).revocation;
          if (revocation) return revocation;
        }
      }
      tokens = known ?? refreshed ?? this.tokensOf(row);
    } catch {
      return notAttempted('its stored tokens could not be opened');
    }
    // Tokens go only where they were issued, a revocation too.
    if ((tokens.origin || null) !== origin) {
      return notAttempted(`its tokens were issued ${tokens.origin ? `while ${row.service} was reached at ${tokens.origin}` : 'at an address the Engine did not record'}, and ${row.service} is now reached at ${origin}`);
    }
    let client: OAuthClient;
    try {
      client = await this.client(row.service, origin);
    } catch (err) {
      return notAttempted(err instanceof EngineError ? err.message : `the OAuth client for '${row.service}' could not be read`);
    }
    const params = tokens.refreshToken ? { token: tokens.refreshToken, token_type_hint: 'refresh_token' } : { token: tokens.accessToken, token_type_hint: 'access_token' };
    const answer = await postForm(this.endpoints, endpoint(oauth.revocationUrl, baseUrl), client, params, 'revocation endpoint', oauth.clientAuth);
    if (answer.status === null) return { revoked: false, reason: 'unreachable', message: `${row.service}'s ${answer.failed}` };
    // RFC 7009 §2.2: success is the status alone (200; some answer 204), the body is not read for it.
    if (answer.status >= 200 && answer.status < 300) return { revoked: true };
    const error = 'text' in answer ? errorCode(jsonObject(answer.text), answer.status) : `HTTP ${answer.status}`;
    return { revoked: false, reason: 'refused', message: `${row.service}'s revocation endpoint answered ${error}` };
  }

  /**
   * A valid access token for the end user's connection, refreshing it first when it is about to
   * expire. `origin` is where it will be sent: refused unless the connection was made for it.
   * `rejected` is a token the provider just answered 401 to: it is refreshed now unless the
   * connection already holds a newer one.
   */
  async accessToken(service: string, endUserRef: string, authName: string | undefined, origin: string, rejected?: string): Promise<string> {
    authName ??= DEFAULT_AUTH_NAME;
    const row = await this.store.getConnection(service, endUserRef, authName);
    if (!row) {
      throw new EngineError('ENGINE_CREDENTIAL_MISSING', `no ${service} connection for end user '${endUserRef}' (auth '${authName}'); run \`${connectCommand({ service, endUserRef, authName })}\``);
    }
    if (row.status === 'needs_reauth') throw needsReauth(row);
    let tokens: TokenSet;
    if (due(row) || (rejected !== undefined && this.tokensOf(row).accessToken === rejected)) {
      let pending = this.refreshing.get(row.id);
      if (!pending) {
        pending = this.refreshAcrossReplicas(row).finally(() => this.refreshing.delete(row.id));
        this.refreshing.set(row.id, pending);
      }
      tokens = await pending;
    } else {
      tokens = this.tokensOf(row);
    }
    if ((tokens.origin || null) !== origin) {
      throw originMoved(connectionLabel(row), tokens.origin || null, origin, connectCommand(row));
    }
    return tokens.accessToken;
  }

  private tokensOf(row: ConnectionRow): TokenSet {
    return JSON.parse(this.vault.open(sealContext(row), row.tokens)) as TokenSet;
  }

  /**
   * Binds connections sealed before origins were to where their service is reached (the catalog's
   * address while it is disabled), which is where their tokens were being sent; one without an
   * address is bound to none ('') and refused until reconnected. Run once, at the first start that
   * binds origins; returns how many.
   *
   * Each write is fenced by the generation read. Losing means someone wrote the row meanwhile:
   * another replica's bind, a new consent (bound), or a refresh (which keeps the row unbound). The
   * row is read again and bound only if it still is unbound, so a refresh cannot leave it unbound.
   */
  async bindUnbound(): Promise<number> {
    let bound = 0;
    for (const listed of await this.store.listConnections()) {
      for (let row: ConnectionRow | null = listed; row?.id === listed.id; row = await this.store.getConnection(row.service, row.endUserRef, row.authName)) {
        let tokens: TokenSet;
        try {
          tokens = this.tokensOf(row);
        } catch {
          break; // a tampered row stays refused
        }
        if (tokens.origin !== undefined) break;
        const origin = (await this.workspace.credentialOrigin(row.service).catch(() => null)) ?? '';
        const sealed = this.vault.seal(sealContext(row), JSON.stringify({ ...tokens, origin } satisfies TokenSet));
        const next = { tokens: sealed, status: row.status, accessExpiresAt: row.accessExpiresAt, updatedAt: row.updatedAt };
        if (await this.store.updateConnectionTokens(row.id, row.generation, next)) {
          bound++;
          break;
        }
      }
    }
    return bound;
  }

  /**
   * What a newer row than `seen` settles: its token when it is usable, a refusal when it needs
   * re-authorisation, or undefined when it is still due for a refresh (or not newer at all).
   */
  private settledBy(latest: ConnectionRow | null, seen: ConnectionRow): TokenSet | undefined {
    // Another row (the connection deleted and made again) holds another grant: never this call's.
    if (!latest || latest.id !== seen.id || latest.generation === seen.generation) return undefined;
    if (latest.status === 'needs_reauth') throw needsReauth(latest);
    return due(latest) ? undefined : this.tokensOf(latest);
  }

  /** Takes the connection's refresh lock and refreshes, or waits (bounded) for the replica that holds it. */
  private async refreshAcrossReplicas(stale: ConnectionRow): Promise<TokenSet> {
    const deadline = Date.now() + this.refreshWaitMs;
    let delay = WAIT_FIRST_DELAY_MS;
    let seen = stale;
    for (;;) {
      let lock: Lock | null;
      try {
        lock = await this.coordinator.tryAcquire(`oauth-refresh:${seen.id}`, REFRESH_LOCK_TTL_MS);
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        this.log.warn({ service: seen.service, connection: seen.id, coordinator: this.coordinator.kind, error: typeof code === 'string' ? code : 'UNAVAILABLE' }, 'oauth refresh lock unavailable');
        metrics.refresh('failed');
        throw new EngineError('ENGINE_CREDENTIAL_REFRESH_FAILED', `refreshing the ${seen.service} connection of '${seen.endUserRef}' failed (the refresh lock is unavailable); retry the call`, { retryable: true });
      }
      if (lock) {
        try {
          return await this.refresh(seen);
        } finally {
          await lock.release().catch((err: unknown) => this.log.warn({ connection: seen.id, err }, 'oauth refresh lock release failed; it expires by itself'));
        }
      }
      // Another replica holds the lock: its tokens appear as a newer generation of the row.
      const latest = await this.store.getConnection(seen.service, seen.endUserRef, seen.authName);
      if (latest?.id !== seen.id) throw goneDuringCall(seen);
      const settled = this.settledBy(latest, seen);
      if (settled !== undefined) {
        metrics.refresh('reused');
        return settled;
      }
      if (latest) seen = latest;
      const left = deadline - Date.now();
      if (left <= 0) {
        metrics.refresh('failed');
        this.log.warn({ service: seen.service, connection: seen.id, waitedMs: this.refreshWaitMs }, 'oauth refresh: gave up waiting for another replica');
        throw new EngineError(
          'ENGINE_CREDENTIAL_REFRESH_FAILED',
          `another Engine replica is refreshing the ${seen.service} connection of '${seen.endUserRef}' and did not finish within ${this.refreshWaitMs} ms; retry the call`,
          { retryable: true },
        );
      }
      await new Promise((r) => setTimeout(r, Math.min(left, delay / 2 + Math.random() * delay)));
      delay = Math.min(delay * 2, WAIT_MAX_DELAY_MS);
    }
  }

  /** Runs under the connection's refresh lock. */
  private async refresh(stale: ConnectionRow): Promise<TokenSet> {
    // Re-read after taking the lock: a refresh that finished meanwhile (here or on another replica)
    // already rotated the refresh token, and replaying the old one would be refused.
    const row = await this.store.getConnection(stale.service, stale.endUserRef, stale.authName);
    if (row?.id !== stale.id) throw goneDuringCall(stale);
    const settled = this.settledBy(row, stale);
    if (settled !== undefined) {
      metrics.refresh('reused');
      return settled;
    }
    if (row.status === 'needs_reauth') throw needsReauth(row);
    const tokens = this.tokensOf(row);
    /** Someone wrote a newer row than ours (we are fenced out): its settled token, if it has one. */
    const newer = async () => this.settledBy(await this.store.getConnection(row.service, row.endUserRef, row.authName), row);
    /** Ends a failed refresh: with newer tokens when we were fenced out, else with the refusal. */
    const fail = async (reason: string, reauth: boolean): Promise<TokenSet> => {
      if (reauth) {
        const marked = await this.store.updateConnectionTokens(row.id, row.generation, { tokens: row.tokens, status: 'needs_reauth', accessExpiresAt: row.accessExpiresAt, updatedAt: new Date().toISOString() });
        // Not marked: newer tokens were written meanwhile, so ours were stale all along.
        const token = marked ? undefined : await newer();
        if (token !== undefined) {
          metrics.refresh('reused');
          return token;
        }
      }
      this.log.warn({ service: row.service, connection: row.id, reason }, 'oauth refresh failed');
      metrics.refresh(reauth ? 'needs_reauth' : 'failed');
      throw new EngineError('ENGINE_CREDENTIAL_REFRESH_FAILED', `refreshing the ${row.service} connection of '${row.endUserRef}' failed (${reason})${reauth ? '; it needs re-authorisation' : ''}`, {
        retryable: !reauth,
      });
    };
    if (!tokens.refreshToken) return fail('no refresh token', true);
    const { oauth, baseUrl, origin } = await this.provider(row.service);
    // The refresh token goes only where the connection was made: after a repoint it stays home.
    if ((tokens.origin || null) !== origin) return tokens;
    const client = await this.client(row.service, origin);
    let answer;
    try {
      answer = await tokenRequest(this.endpoints, oauth, baseUrl, client, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken });
    } catch (err) {
      return fail(`token endpoint unreachable: ${(err as Error).message}`, false);
    }
    if (!answer.ok) return fail(answer.error, refreshTokenDead(answer));
    const next: TokenSet = { accessToken: answer.accessToken, refreshToken: answer.refreshToken ?? tokens.refreshToken, ...(tokens.origin === undefined ? {} : { origin: tokens.origin }) };
    const update = { tokens: this.vault.seal(sealContext(row), JSON.stringify(next)), status: 'active' as const, accessExpiresAt: answer.expiresAt, updatedAt: new Date().toISOString() };
    const written = await this.store.updateConnectionTokens(row.id, row.generation, update);
    metrics.refresh('refreshed');
    if (!written) {
      const current = await this.store.getConnection(row.service, row.endUserRef, row.authName);
      // A replay of the refresh token ours spent was refused and marked the connection right after
      // us (a replica without a shared lock): the provider's answer to us is the live one, so keep it.
      if (current?.id === row.id && current.status === 'needs_reauth' && current.generation === row.generation + 1 && (await this.store.updateConnectionTokens(row.id, current.generation, update))) {
        return next;
      }
      // Someone else wrote newer tokens first (a replica whose lock outlived ours, or a new consent): use theirs.
      const token = this.settledBy(current, row);
      if (token !== undefined) return token;
      if (current?.id !== row.id) {
        // Deleted meanwhile (here or on another replica; perhaps made again since, as another row): the
        // delete revoked the grant it knew, and the provider's answer to us is a grant nobody would
        // revoke. Revoke it, and use none of it.
        const revocation = await this.revoke(row, next);
        if (!revocation.revoked && revocation.reason !== 'not_supported') {
          this.log.warn({ service: row.service, connection: row.id, reason: revocation.reason, detail: revocation.message }, 'oauth revocation not confirmed');
        }
        // The revocation goes with the refusal: a delete in this process waiting on this refresh reports it.
        throw Object.assign(goneDuringCall(row), { revocation });
      }
    }
    return next;
  }
}
