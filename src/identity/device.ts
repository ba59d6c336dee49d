// OAuth 2.0 Device Authorization Grant (RFC 8628) for svc-cli: the CLI holds the device code and
// polls; a person approves the user code on the sign-in page; the credential goes straight to
// the CLI and never through the browser.
import { randomBytes } from 'node:crypto';
import { hashToken } from '../ids/index.ts';
import type { Store } from '../store/index.ts';
import { humanCode } from './accounts.ts';
import { CLI_CREDENTIAL_TTL_S } from './limits.ts';
import type { Tokens } from './tokens.ts';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export type DeviceTokenError = 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'invalid_grant';

export class DeviceFlowError extends Error {
  override name = 'DeviceFlowError';
  readonly error: DeviceTokenError;
  constructor(error: DeviceTokenError, description: string) {
    super(description);
    this.error = error;
  }
}

export class DeviceFlow {
  private readonly store: Store;
  private readonly tokens: Tokens;
  private readonly ttlSeconds: number;
  private readonly intervalSeconds: number;

  constructor(store: Store, tokens: Tokens, options: { ttlSeconds: number; intervalSeconds: number }) {
    this.store = store;
    this.tokens = tokens;
    this.ttlSeconds = options.ttlSeconds;
    this.intervalSeconds = options.intervalSeconds;
  }

  /**
   * `requester`: the address and User-Agent the request came from, shown on the approval page, and
   * the lifetime asked for the credential (null: the default).
   */
  async start(clientId: string, signinUrl: string, requester: { from: string; agent: string | null; credentialTtlSeconds: number | null }) {
    const deviceCode = randomBytes(32).toString('base64url');
    const userCode = humanCode();
    const now = Date.now();
    await this.store.insertDeviceCode({
      hash: hashToken(deviceCode),
      userCode,
      clientId,
      status: 'pending',
      subject: null,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + this.ttlSeconds * 1000).toISOString(),
      lastPolledAt: null,
      requestedFrom: requester.from,
      requestedAgent: requester.agent,
      credentialTtlSeconds: requester.credentialTtlSeconds,
    });
    return {
      device_code: deviceCode,
      user_code: userCode,
      verification_uri: signinUrl,
      verification_uri_complete: `${signinUrl}?user_code=${encodeURIComponent(userCode)}`,
      expires_in: this.ttlSeconds,
      interval: this.intervalSeconds,
    };
  }

  /** A pending, unexpired code by its user code, for the sign-in page. */
  async pending(userCode: string) {
    const row = await this.store.getDeviceCodeByUserCode(userCode.trim().toUpperCase());
    if (!row || row.status !== 'pending' || Date.parse(row.expiresAt) <= Date.now()) return null;
    return row;
  }

  /**
   * What became of an unexpired code: 'pending', 'approved' (also once redeemed) or 'denied'; null
   * for an unknown or expired one. Lets the sign-in page answer a second submission of a form
   * already decided (a double click) with the outcome rather than an error.
   */
  async outcome(userCode: string): Promise<'pending' | 'approved' | 'denied' | null> {
    const row = await this.store.getDeviceCodeByUserCode(userCode.trim().toUpperCase());
    if (!row || Date.parse(row.expiresAt) <= Date.now()) return null;
    return row.status === 'redeemed' ? 'approved' : row.status;
  }

  async decide(userCode: string, decision: 'approve' | 'deny', subject: string | null): Promise<boolean> {
    const row = await this.pending(userCode);
    if (!row) return false;
    return this.store.decideDeviceCode(row.userCode, decision === 'approve' ? 'approved' : 'denied', decision === 'approve' ? subject : null);
  }

  /** RFC 8628 §3.4–3.5: one poll. Returns the credential once the person has approved, and its lifetime in seconds. */
  async poll(deviceCode: string, clientId = 'svc-cli'): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number; subject: string }> {
    const hash = hashToken(deviceCode);
    const row = await this.store.getDeviceCode(hash);
    if (!row) throw new DeviceFlowError('invalid_grant', 'unknown device code');
    // RFC 8628 §3.4: the code is redeemed by the client it was issued to.
    if (row.clientId !== clientId) throw new DeviceFlowError('invalid_grant', 'this device code was issued to another client_id');
    const now = Date.now();
    if (row.status === 'redeemed') throw new DeviceFlowError('invalid_grant', 'this device code was already used');
    if (row.status === 'denied') throw new DeviceFlowError('access_denied', 'the sign-in was denied');
    if (Date.parse(row.expiresAt) <= now) throw new DeviceFlowError('expired_token', 'the device code expired; run `svc-cli login` again');
    const tooSoon = !(await this.store.touchDeviceCode(hash, new Date(now).toISOString(), new Date(now - this.intervalSeconds * 1000).toISOString()));
    if (row.status === 'pending') {
      if (tooSoon) throw new DeviceFlowError('slow_down', `poll at most every ${this.intervalSeconds} s`);
      throw new DeviceFlowError('authorization_pending', 'waiting for approval on the sign-in page');
    }
    // Its lifetime runs from now, when it is issued, not from when the sign-in started.
    const ttl = row.credentialTtlSeconds ?? CLI_CREDENTIAL_TTL_S;
    const { token, row: credential } = this.tokens.mint('cli', row.subject!, { expiresAt: new Date(now + ttl * 1000).toISOString() });
    if (!(await this.store.redeemDeviceCode(hash, credential))) throw new DeviceFlowError('invalid_grant', 'this device code was already used');
    return { access_token: token, token_type: 'Bearer', expires_in: ttl, subject: row.subject! };
  }
}
