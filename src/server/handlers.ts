// One handler per operationId of spec/engine.openapi.yaml. Inputs arrive validated by the
// generated validators; handlers only translate between the API and the concept modules.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { operations } from '../../generated/engine-api/types.ts';
import type { McpGateway } from '../mcp/index.ts';
import type { OperationId } from '../../generated/engine-api/routes.ts';
import type { ActivityLog } from '../activity/index.ts';
import { CatalogError, type Catalog } from '../catalog/index.ts';
import type { EngineConfig } from '../config/index.ts';
import { DEFAULT_BUCKET, credentialValueProblem, type SecretVault } from '../credentials/index.ts';
import { EngineError } from '../envelope/index.ts';
import { allows, resultJson, type Calls } from '../calls/index.ts';
import type { Connection, Executor } from '../execution/index.ts';
import { DEVICE_COOKIE_TTL_MS, DEVICE_STARTS, DEVICE_START_WINDOW_MS, DeviceFlowError, SIGNIN_DEVICE_FAILURES, SIGNIN_FAILURES, SIGNIN_WINDOW_MS, type Accounts, type DeviceFlow, type Tokens } from '../identity/index.ts';
import { OAUTH_ERROR_CODE, type Connections } from '../connections/index.ts';
import type { Coordinator } from '../coordination/index.ts';
import { PAGE_HEADERS, resultPage, signinPage } from './pages.ts';
import type { Logger } from '../log/index.ts';
import { metrics } from '../metrics/index.ts';
import type { Apps } from '../apps/index.ts';
import type { Packages } from '../sdkgen/index.ts';
import type { AppVersionRow, Store, TokenRow } from '../store/index.ts';
import type { EnabledService, Workspace } from '../workspace/index.ts';
import type { UnifiedOperations } from '../unified/index.ts';

export interface ServerDeps {
  config: EngineConfig;
  /** Where people and clients reach this Engine; filled in once it listens. */
  urls: { http: string };
  accounts: Accounts;
  deviceFlow: DeviceFlow;
  connections: Connections;
  /** Locks shared by the replicas (Redis with REDIS_URL); readiness pings it. */
  coordinator: Coordinator;
  mcpGateway: McpGateway;
  unified: UnifiedOperations;
  log: Logger;
  catalog: Catalog;
  workspace: Workspace;
  vault: SecretVault;
  tokens: Tokens;
  sdk: Apps;
  mcp: Apps;
  executor: Executor;
  /** The one entry of every call (src/calls). */
  calls: Calls;
  activity: ActivityLog;
  store: Store;
  /** Typed packages and READMEs of SDK versions. */
  packages: Packages;
}

type Content<T> = T extends { content: infer C } ? C[keyof C] : never;
type BodyOf<Id extends OperationId> = operations[Id] extends { requestBody: infer R }
  ? Content<R>
  : operations[Id] extends { requestBody?: infer R }
    ? Content<NonNullable<R>> | undefined
    : undefined;
type Present<T> = [NonNullable<T>] extends [never] ? {} : NonNullable<T>;
type ParamsOf<Id extends OperationId> = operations[Id] extends { parameters: infer P }
  ? (P extends { path?: infer X } ? Present<X> : {}) & (P extends { query?: infer Q } ? Present<Q> : {})
  : {};

export interface HandlerInput<Id extends OperationId> {
  params: ParamsOf<Id>;
  /** Raw routes only (x-raw): the Node request and response. */
  req: IncomingMessage;
  res: ServerResponse;
  body: BodyOf<Id>;
  principal: TokenRow | undefined;
  /** The request's Origin header, when present. */
  origin: string | undefined;
  /** The request's Sec-Fetch-Site header, when present. */
  fetchSite: string | undefined;
  /** The peer's address: the key of per-client limits. */
  client: string;
  /** The request's Cookie header, when present. */
  cookie: string | undefined;
  host: string;
  /** The client's connection: a call made for it is cancelled if it closes first. */
  connection: Connection;
}

export interface HandlerResult {
  status?: number;
  body?: unknown;
  type?: string;
  headers?: Record<string, string>;
}

export type Handler<Id extends OperationId> = (input: HandlerInput<Id>) => Promise<HandlerResult>;
export type Handlers = { [Id in OperationId]: Handler<Id> };

const versionView = (v: AppVersionRow) => ({
  name: v.name,
  version: v.version,
  versionId: v.versionId,
  services: v.services,
  operations: v.operations,
  createdAt: v.createdAt,
});

const workspaceView = ({ services, revision }: { services: EnabledService[]; revision: string }) => ({
  services: services.map((s) => ({ name: s.service, version: s.version, baseUrl: s.baseUrl, baseUrlOverridden: s.baseUrlOverridden, enabledAt: s.enabledAt })),
  revision,
});

const html = (body: string, status = 200): HandlerResult => ({ status, type: 'text/html; charset=utf-8', headers: PAGE_HEADERS, body });

const tokenView = (t: TokenRow) => ({
  id: t.id,
  allow: t.allow,
  expiresAt: t.expiresAt,
  lastUsedAt: t.lastUsedAt,
  revokedAt: t.revokedAt,
  createdAt: t.createdAt,
  binding: t.binding,
});

/**
 * A token's expiry as asked, checked (readable, in the future) and in one form, UTC with
 * milliseconds, whatever offset or case it came in (null or absent: never).
 */
function expiryOf(expiresAt: string | null | undefined): string | null {
  if (expiresAt === undefined || expiresAt === null) return null;
  // The format check admits a leap second (…:60Z), which Date.parse cannot read: never store an expiry the check would skip.
  const at = Date.parse(expiresAt);
  if (!Number.isFinite(at)) throw new EngineError('ENGINE_INVALID_INPUT', 'expiresAt is not a time the Engine can read; use an RFC 3339 time such as 2027-01-31T00:00:00Z', { details: { field: 'expiresAt' } });
  if (at <= Date.now()) throw new EngineError('ENGINE_INVALID_INPUT', 'expiresAt must be in the future', { details: { field: 'expiresAt' } });
  return new Date(at).toISOString();
}

/** How long a failed sign-in waits to see whether a concurrent submission of the same form decided its code. */
const DECISION_SETTLE_MS = 150;

const DEVICE_COOKIE_NAME = 'svc_signin_device';
const DEVICE_COOKIE_VALUES = new RegExp(`(?:^|;)\\s*${DEVICE_COOKIE_NAME}=([^;\\s]*)`, 'g');
/** Every value of our device cookie in a Cookie header (its values never need quoting or decoding); Accounts checks them. */
const deviceCookiesOf = (header: string | undefined) => (header ? [...header.matchAll(DEVICE_COOKIE_VALUES)].map((m) => m[1]!) : []);
/** Sent only back to the sign-in form (at `path`), never readable by scripts, never on a request from another site. */
const deviceCookieHeader = (value: string, path: string, secure: boolean) =>
  `${DEVICE_COOKIE_NAME}=${value}; Path=${path}; Max-Age=${DEVICE_COOKIE_TTL_MS / 1000}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

/** Retry-After in whole seconds, at least 1. */
const retryAfterSeconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

/** Retry-After of a rate-limited refusal that says how long to wait, else undefined. */
export function retryAfterOf(envelope: { error: { code: string; details?: Record<string, unknown> } | null }): string | undefined {
  const ms = envelope.error?.code === 'ENGINE_RATE_LIMITED' ? Number(envelope.error.details?.retry_after_ms) : NaN;
  return Number.isFinite(ms) ? retryAfterSeconds(ms) : undefined;
}

/** Refuses a bucket other than the one this workspace has (404 naming `bucket`). */
function knownBucket(bucket: string): void {
  if (bucket !== DEFAULT_BUCKET) {
    throw new EngineError('ENGINE_NOT_FOUND', `unknown bucket '${bucket}'; this workspace has the '${DEFAULT_BUCKET}' bucket`, { details: { field: 'bucket' } });
  }
}

/** How long a readiness probe may take before its dependency counts as unavailable. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Runs one readiness probe under PROBE_TIMEOUT_MS. The answer names the failure by a short code only
 * (an errno, a SQLSTATE or TIMEOUT): /readyz is unauthenticated, so no message, host or address.
 */
async function probe(check: () => Promise<void>, backend: string, log: Logger) {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`), { code: 'TIMEOUT' })), PROBE_TIMEOUT_MS);
      }),
    ]);
    return { status: 'ok' as const, backend, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const error = typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : 'UNAVAILABLE';
    log.warn({ dependency: backend, error, reason: (err as Error).message }, 'readiness probe failed');
    return { status: 'unavailable' as const, backend, latencyMs: Math.round((performance.now() - started) * 100) / 100, error };
  } finally {
    clearTimeout(timer);
  }
}

/** The host of an Origin header, or undefined when it is not a URL (then it matches no host). */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

export function createHandlers(deps: ServerDeps): Handlers {
  const { catalog, workspace, vault, sdk, mcp, executor, activity, config, accounts, deviceFlow, connections, tokens, urls } = deps;
  /**
   * A limit counted by the Coordinator (shared by replicas with Redis; per replica while Redis is
   * down). Like the per-token rate limit, a coordinator that fails outright lets the request
   * through, with a warning, rather than refuse all.
   */
  const limited = async <T>(read: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await read();
    } catch (err) {
      deps.log.warn({ err: (err as { code?: string }).code ?? 'unavailable' }, 'identity limit not checked: coordination unavailable');
      return fallback;
    }
  };
  const mcpUrl = (versionId: string) => `${config.publicUrl ?? urls.http}/mcp/${versionId}`;
  /** Behind an https public URL, cookies go only over https. */
  const secureCookies = config.publicUrl?.startsWith('https:') ?? false;
  /**
   * The sign-in page's path as browsers see it: under SVC_PUBLIC_URL's path when the Engine is served
   * below one; `/` for a path a cookie attribute cannot carry (a `;`).
   */
  const publicPath = config.publicUrl ? new URL(config.publicUrl).pathname.replace(/\/+$/, '') : '';
  const signinPath = /^[\x21-\x3a\x3c-\x7e]*$/.test(publicPath) ? `${publicPath}/signin` : '/';

  /** An MCP server by name, or by one of its version IDs. */
  const mcpServer = async (nameOrId: string) => {
    const byId = nameOrId.startsWith('ver_') ? await mcp.version(nameOrId) : null;
    const name = byId?.name ?? nameOrId;
    if (!(await mcp.versions(name)).length) {
      throw new EngineError('ENGINE_NOT_FOUND', `no MCP server named '${nameOrId}'; list them with \`svc-cli mcp list\``, { details: { field: 'name' } });
    }
    return name;
  };
  const sdkApp = async (name: string) => {
    if (!(await sdk.versions(name)).length) {
      throw new EngineError('ENGINE_NOT_FOUND', `no SDK app named '${name}'; list them with \`svc-cli sdk list\``, { details: { field: 'name' } });
    }
    return name;
  };

  return {
    async getLiveness() {
      return { body: { status: 'ok' as const } };
    },

    async getReadiness() {
      // Redis is a dependency only when configured (REDIS_URL): then it holds the refresh locks and
      // the MCP session state every replica shares, and a replica that cannot reach it is not ready.
      const [database, redis] = await Promise.all([
        probe(() => deps.store.ping(), deps.store.kind, deps.log),
        deps.coordinator.kind === 'redis' ? probe(() => deps.coordinator.ping(), 'redis', deps.log) : undefined,
      ]);
      const checks = redis ? { database, redis } : { database };
      const ready = Object.values(checks).every((c) => c.status === 'ok');
      return { status: ready ? 200 : 503, body: { status: ready ? ('ready' as const) : ('unavailable' as const), checks } };
    },

    async getMetrics() {
      return { type: metrics.contentType, body: await metrics.text() };
    },

    async listCatalogServices({ params }) {
      await catalog.refresh(); // imports made on other replicas
      const byName = new Map<string, { name: string; title: string; versions: unknown[] }>();
      for (const s of catalog.list(params.q)) {
        const entry = byName.get(s.service) ?? { name: s.service, title: s.title, versions: [] };
        entry.versions.push({ version: s.version, operations: s.operations, source: s.source, baseUrl: s.baseUrl });
        byName.set(s.service, entry);
      }
      return { body: { services: [...byName.values()] } };
    },

    async listWorkspaceServices() {
      return { body: workspaceView(await workspace.state()) };
    },

    async applyWorkspace({ body }) {
      return { body: workspaceView(await workspace.apply(body.services.map((s) => ({ service: s.name, version: s.version, baseUrl: s.baseUrl })), body.revision)) };
    },

    async enableWorkspaceService({ params, body }) {
      const s = await workspace.enable(params.service, body.version, body.baseUrl);
      return { body: { name: s.service, version: s.version, baseUrl: s.baseUrl, baseUrlOverridden: s.baseUrlOverridden, enabledAt: s.enabledAt } };
    },

    async disableWorkspaceService({ params }) {
      await workspace.disable(params.service);
      return { status: 204 };
    },

    async importWorkspaceService({ body }) {
      try {
        const index = await catalog.import({ service: body.name, version: body.version, document: body.document, baseUrl: body.baseUrl, auth: body.auth });
        return {
          status: 201,
          body: {
            name: index.service,
            title: index.title,
            versions: [{ version: index.version, operations: index.operations.length, source: 'imported', baseUrl: index.baseUrl, ...(index.omitted ? { omitted: index.omitted } : {}), ...(index.warnings ? { warnings: index.warnings } : {}) }],
          },
        };
      } catch (err) {
        if (err instanceof CatalogError) throw new EngineError(err.conflict ? 'ENGINE_CONFLICT' : 'ENGINE_INVALID_INPUT', err.message, { details: { field: err.field } });
        throw err;
      }
    },

    async listBuckets() {
      const secrets = await vault.list();
      const names = new Set([DEFAULT_BUCKET, ...secrets.map((s) => s.bucket)]);
      return {
        body: {
          buckets: [...names].sort().map((name) => ({
            name,
            secrets: secrets.filter((s) => s.bucket === name).map((s) => ({ service: s.service, origin: s.origin, updatedAt: s.updatedAt })),
          })),
        },
      };
    },

    async setSecret({ params, body }) {
      knownBucket(params.bucket);
      // Every version counts for where the secret may go: read what other replicas imported.
      await catalog.refresh();
      if (!catalog.has(params.service)) {
        throw new EngineError('ENGINE_NOT_FOUND', `unknown service '${params.service}'`, { details: { field: 'service' } });
      }
      const problem = credentialValueProblem(body.value);
      if (problem) throw new EngineError('ENGINE_INVALID_INPUT', `value ${problem}`, { details: { field: 'value' } });
      // Bound to where the service is reached now: repointing it later does not take the secret along.
      const origin = await workspace.credentialOrigin(params.service);
      if (origin === null) throw new EngineError('ENGINE_NOT_FOUND', `unknown service '${params.service}'`, { details: { field: 'service' } });
      await vault.set(params.bucket, params.service, body.value, origin);
      return { status: 204 };
    },

    async deleteSecret({ params }) {
      knownBucket(params.bucket);
      // Any service name: a secret outlives its service being removed from the catalog.
      if (!(await vault.delete(params.bucket, params.service))) {
        throw new EngineError('ENGINE_NOT_FOUND', `no secret is set for '${params.service}' in bucket '${params.bucket}'`, { details: { field: 'service' } });
      }
      return { status: 204 };
    },

    async validateSdkDefinition({ body }) {
      const resolved = await sdk.resolve(body);
      return {
        body: {
          name: resolved.name,
          services: [...resolved.services].map(([name, version]) => ({ name, version })),
          operations: resolved.operations,
        },
      };
    },

    async planSdk({ body }) {
      const { resolved: _r, current: _c, ...plan } = await sdk.plan(body);
      return { body: plan };
    },

    async publishSdk({ body }) {
      return { body: await sdk.publish(body) };
    },

    async listSdks() {
      return { body: { sdks: (await sdk.list()).map(versionView) } };
    },

    async listSdkVersions({ params }) {
      const versions = await sdk.versions(params.name);
      if (!versions.length) throw new EngineError('ENGINE_NOT_FOUND', `no SDK app named '${params.name}'`, { details: { field: 'name' } });
      return { body: { versions: versions.map(versionView) } };
    },

    async downloadSdkPackage({ params }) {
      const versions = await sdk.versions(params.name);
      const version = versions.find((v) => v.version === params.version || v.versionId === params.version);
      if (!version) {
        throw new EngineError('ENGINE_NOT_FOUND', `no version '${params.version}' of SDK app '${params.name}'`, { details: { field: 'version' } });
      }
      const file = await deps.packages.get(version, params.kind);
      return {
        type: file.contentType,
        headers: { 'content-disposition': `attachment; filename="${file.filename}"`, 'x-content-sha256': file.sha256 },
        body: file.bytes,
      };
    },

    async listReceipts({ params }) {
      // SDK and MCP versions both write receipts (surface rest/grpc or mcp).
      if (!(await sdk.version(params.version_id)) && !(await mcp.version(params.version_id))) {
        throw new EngineError('ENGINE_NOT_FOUND', `unknown version '${params.version_id}'`, { details: { field: 'version_id' } });
      }
      return { body: await activity.list(params.version_id, params.limit ?? 50, params.before) };
    },

    async startDeviceAuthorization({ body, client }) {
      // Unauthenticated, and each start stores a row: bounded per client address.
      const started = await limited(() => deps.coordinator.hit(`device-start:${client}`, DEVICE_START_WINDOW_MS), { count: 0, resetInMs: 0 });
      const waitMs = started.count > DEVICE_STARTS ? Math.max(1, started.resetInMs) : 0;
      if (waitMs > 0) {
        throw new EngineError('ENGINE_RATE_LIMITED', `too many sign-ins started from this address; retry in ${Math.ceil(waitMs / 1000)} s`, {
          retryable: true,
          details: { retry_after_ms: waitMs },
        });
      }
      return { body: await deviceFlow.start(body?.client_id ?? 'svc-cli', `${config.publicUrl ?? urls.http}/signin`) };
    },

    async exchangeDeviceCode({ body }) {
      try {
        return { body: await deviceFlow.poll(body.device_code, body.client_id ?? 'svc-cli') };
      } catch (err) {
        if (err instanceof DeviceFlowError) return { status: 400, body: { error: err.error, error_description: err.message } };
        throw err;
      }
    },

    async whoami({ principal }) {
      return { body: { subject: principal!.subject, credentialId: principal!.id, createdAt: principal!.createdAt, expiresAt: principal!.expiresAt } };
    },

    async logout({ principal }) {
      await tokens.revoke(principal!.id);
      return { status: 204 };
    },

    async showSignin({ params }) {
      return html(signinPage({ userCode: params.user_code }));
    },

    async submitSignin({ body, origin, fetchSite, client, host, cookie }) {
      // The form only posts from the Engine's own page (a second guard beside the CSP form-action).
      // Its same-origin referrer policy makes browsers send its real Origin, which must be the
      // Engine's; an opaque one (`null`: a sandboxed frame, a data: page) is refused, since browsers
      // send no Sec-Fetch-Site to a plain-HTTP host to tell them apart. No Origin at all (a client
      // that is not a browser) is judged by Sec-Fetch-Site.
      const crossSite = fetchSite === 'cross-site' || fetchSite === 'same-site';
      const foreign = origin === 'null' || (origin ? originHost(origin) !== host : crossSite);
      if (foreign) {
        return html(resultPage({ heading: 'Refused', message: 'This form can only be submitted from the Engine’s own sign-in page.', ok: false }), 403);
      }
      const again = (error: string, status = 400) => html(signinPage({ userCode: body.user_code, username: body.username, error }), status);
      // Guesses are bounded per account and per client before any secret is checked. Each attempt
      // is counted first and taken back when it was no guess (refused, an unknown code, the right password),
      // so a burst of concurrent guesses cannot all pass a count read before any was recorded.
      // A browser that signed in to this account before (its device cookie) is counted on its own
      // instead, so guesses from elsewhere, however many, cannot lock the account's owner out.
      // All known browsers of an account together also have a bound, so many cookies are not many budgets.
      const device = await accounts.trustedDevice(deviceCookiesOf(cookie), body.username);
      const limits: [key: string, allowed: number][] = device
        ? [[`signin-failures:device:${device}`, SIGNIN_FAILURES], [`signin-failures:devices:${body.username}`, SIGNIN_DEVICE_FAILURES]]
        : [[`signin-failures:account:${body.username}`, SIGNIN_FAILURES], [`signin-failures:client:${client}`, SIGNIN_FAILURES]];
      const counts = await Promise.all(limits.map(([k]) => limited(() => deps.coordinator.hit(k, SIGNIN_WINDOW_MS), { count: 0, resetInMs: 0 })));
      const takeBack = () => Promise.all(limits.map(([k]) => limited(() => deps.coordinator.unhit(k), undefined)));
      const waitMs = Math.max(0, ...counts.map((c, i) => (c.count > limits[i]![1] ? Math.max(1, c.resetInMs) : 0)));
      if (waitMs > 0) {
        await takeBack(); // a refused attempt checked nothing
        const result = again(`Too many failed sign-ins; try again in ${Math.ceil(waitMs / 60_000)} min (or, on the Engine host, \`svc-engine credential create\`).`, 429);
        return { ...result, headers: { ...result.headers, 'retry-after': retryAfterSeconds(waitMs) } };
      }
      // A form submitted twice (a double click: the browser shows the second answer) gets the outcome
      // the first decided, not an error; a one-time code the first used would also read as wrong.
      const decided = async () => {
        const outcome = await deviceFlow.outcome(body.user_code);
        if (outcome === 'approved') return html(resultPage({ heading: 'Already approved', message: 'This sign-in was approved; svc-cli is signed in. You can close this page.', ok: true }));
        if (outcome === 'denied') return html(resultPage({ heading: 'Sign-in denied', message: 'This sign-in was denied; svc-cli has stopped waiting.', ok: false }));
        return undefined;
      };
      if (!(await deviceFlow.pending(body.user_code))) {
        await takeBack();
        return (await decided()) ?? again('That code is unknown, already used or expired. Run `svc-cli login` again for a new one.');
      }
      const subject = await accounts.authenticate(body.username, body.password);
      if (!subject) {
        // Decided meanwhile by a submission that was right: a double click, not a guess. The first
        // may have used a one-time code and not yet recorded its decision: look again shortly.
        const outcome = (await decided()) ?? (await new Promise((r) => setTimeout(r, DECISION_SETTLE_MS)).then(decided));
        if (outcome) {
          await takeBack();
          return outcome;
        }
        return again('The account or password is not right.', 401);
      }
      await takeBack();
      // The cookie only spares this browser others' lockouts: a store that fails to mint it must not fail the sign-in.
      const cookieValue = await accounts.deviceCookie(subject).catch((err: unknown) => void deps.log.warn({ err }, 'sign-in device cookie not issued'));
      const known = (result: HandlerResult): HandlerResult =>
        cookieValue === undefined ? result : { ...result, headers: { ...result.headers, 'set-cookie': deviceCookieHeader(cookieValue, signinPath, secureCookies) } };
      if (!(await deviceFlow.decide(body.user_code, body.decision, subject))) return known((await decided()) ?? again('That code is no longer waiting for approval.'));
      return known(
        body.decision === 'approve'
          ? html(resultPage({ heading: 'Signed in', message: `svc-cli is now signed in as ${subject}.`, ok: true }))
          : html(resultPage({ heading: 'Sign-in denied', message: 'The request was denied; svc-cli will stop waiting.', ok: false })),
      );
    },

    async listMcpServers() {
      const servers = [];
      for (const { name } of await mcp.list()) {
        // The active version is the newest of this read: one published since list() is in it too.
        const versions = await mcp.versions(name);
        for (const v of versions) {
          servers.push({ name: v.name, version: v.version, versionId: v.versionId, active: v.versionId === versions[0]!.versionId, url: mcpUrl(v.versionId), services: v.services, createdAt: v.createdAt });
        }
      }
      return { body: { servers } };
    },

    async planMcp({ body }) {
      const { resolved: _r, current: _c, ...plan } = await mcp.plan(body);
      return { body: plan };
    },

    async publishMcp({ body }) {
      const result = await mcp.publish(body);
      return { body: { ...result, url: mcpUrl(result.versionId) } };
    },

    async listMcpTokens({ params }) {
      const name = await mcpServer(params.name);
      return { body: { tokens: (await deps.store.listTokens('mcp', name)).map(tokenView) } };
    },

    async createMcpToken({ params, body }) {
      const name = await mcpServer(params.name);
      const expiresAt = expiryOf(body.expiresAt);
      // An entry that matches nothing (a typo) would make a token that cannot call what was meant:
      // checked against the version named, else the latest.
      const target = params.name.startsWith('ver_') ? (await mcp.version(params.name))! : (await mcp.versions(name))[0]!;
      const unmatched = body.allow.findIndex((entry: string) => !target.operations.some((op) => allows([entry], op)));
      if (unmatched >= 0) {
        throw new EngineError('ENGINE_INVALID_INPUT', `allow[${unmatched}] '${body.allow[unmatched]}' matches no operation of ${name} ${target.version}`, {
          details: { field: `allow[${unmatched}]` },
        });
      }
      const binding = body.binding && Object.keys(body.binding).length ? (body.binding as Record<string, string>) : null;
      const issued = await tokens.issue('mcp', name, { allow: [...new Set(body.allow)].sort(), expiresAt, binding });
      return { status: 201, body: { id: issued.row.id, token: issued.token, allow: issued.row.allow, expiresAt: issued.row.expiresAt, binding: issued.row.binding } };
    },

    async listSdkTokens({ params }) {
      const name = await sdkApp(params.name);
      return { body: { tokens: (await deps.store.listTokens('sdk', name)).map(({ id, expiresAt, lastUsedAt, revokedAt, createdAt }) => ({ id, expiresAt, lastUsedAt, revokedAt, createdAt })) } };
    },

    async createSdkToken({ params, body }) {
      const name = await sdkApp(params.name);
      const issued = await tokens.issue('sdk', name, { expiresAt: expiryOf(body.expiresAt) });
      return { status: 201, body: { id: issued.row.id, token: issued.token, expiresAt: issued.row.expiresAt } };
    },

    async revokeToken({ params }) {
      // Execution tokens only: CLI credentials are revoked by their holder (logout) or on the host.
      if (!(await tokens.revoke(params.token_id, params.kind ? [params.kind] : ['sdk', 'mcp']))) {
        throw new EngineError('ENGINE_NOT_FOUND', `no live ${params.kind ? `${params.kind.toUpperCase()} ` : ''}token ${params.token_id}`, { details: { field: 'token_id' } });
      }
      return { status: 204 };
    },

    async setOAuthClient({ params, body }) {
      knownBucket(params.bucket);
      for (const field of ['clientId', 'clientSecret'] as const) {
        const problem = credentialValueProblem(body[field]);
        if (problem) throw new EngineError('ENGINE_INVALID_INPUT', `${field} ${problem}`, { details: { field } });
      }
      await connections.setClient(params.service, { clientId: body.clientId, clientSecret: body.clientSecret });
      return { status: 204 };
    },

    async deleteOAuthClient({ params }) {
      knownBucket(params.bucket);
      if (!(await connections.deleteClient(params.service))) {
        throw new EngineError('ENGINE_NOT_FOUND', `no OAuth client is set for '${params.service}' in bucket '${params.bucket}'`, { details: { field: 'service' } });
      }
      return { status: 204 };
    },

    async listConnections({ params }) {
      return { body: { connections: await connections.list(params.service) } };
    },

    async deleteConnection({ params }) {
      const deleted = await connections.delete(params.connection_id);
      if (!deleted) throw new EngineError('ENGINE_NOT_FOUND', `no connection ${params.connection_id}`, { details: { field: 'connection_id' } });
      return { body: deleted };
    },

    async createConnection({ body }) {
      return { status: 201, body: await connections.start(body.service, body.endUserRef, body.authName) };
    },

    async oauthCallback({ params }) {
      if (params.error || !params.code || !params.state) {
        // Anyone can send a link to this page with any query: of `error`, only an RFC 6749 error
        // code (access_denied, …) is shown, never free text that would speak with the Engine's voice.
        const reason = params.error ? (OAUTH_ERROR_CODE.test(params.error) ? params.error : null) : 'no code';
        const message = reason === null ? 'The provider did not grant access.' : `The provider did not grant access (${reason}).`;
        return html(resultPage({ heading: 'Not connected', message, ok: false }), 400);
      }
      try {
        const c = await connections.complete(params.code, params.state);
        return html(resultPage({ heading: 'Connected', message: `${c.service} is connected for ${c.endUserRef}.`, ok: true }));
      } catch (err) {
        if (err instanceof EngineError) return html(resultPage({ heading: 'Not connected', message: err.message, ok: false }), err.status);
        throw err;
      }
    },

    mcpPost: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, false).then(() => ({})),
    mcpGet: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, false).then(() => ({})),
    mcpDelete: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, false).then(() => ({})),
    mcpTransitionalPost: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, true).then(() => ({})),
    mcpTransitionalGet: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, true).then(() => ({})),
    mcpTransitionalDelete: ({ req, res, params }) => deps.mcpGateway.handle(req, res, params.version_id, true).then(() => ({})),

    async createExecution({ params, body, principal, connection }) {
      if (!principal) throw new EngineError('ENGINE_UNAUTHENTICATED', `the token is not valid for version ${params.version_id}`);
      // A client that hangs up stops the work done for it: no further pages, no provider call left running.
      const answer = await deps.calls.call(principal, params.version_id, 'rest', body, { connection });
      if (answer.unified) {
        // 200 when a provider answered a step, else the envelope's status; a replay answers with the first call's.
        const { httpStatus, envelope, retryAfterMs } = answer.result;
        const wait = httpStatus === 429 ? retryAfterMs : undefined;
        return { status: httpStatus, body: envelope, ...(wait !== undefined ? { headers: { 'retry-after': retryAfterSeconds(wait) } } : {}) };
      }
      const { result } = answer;
      // A provider's JSON body is spliced into the envelope as it came, not re-serialised.
      const retryAfter = retryAfterOf(result.envelope);
      return {
        status: result.providerAnswered ? 200 : result.envelope.status,
        type: 'application/json; charset=utf-8',
        body: resultJson(result),
        ...(retryAfter ? { headers: { 'retry-after': retryAfter } } : {}),
      };
    },
  };
}
