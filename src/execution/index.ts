// The one execution path behind every surface (REST, gRPC, MCP): resolve and authorise the
// operation, validate input, inject the credential, dispatch, traverse pages, write a receipt.
import { hash } from 'node:crypto';
import type { ApiKeyAuth, Catalog, OperationSpec, PaginationPolicy, ServiceIndex } from '../catalog/index.ts';
import { inputKey } from '../catalog/types.ts';
import type { BoundSecret, SecretVault } from '../credentials/index.ts';
import { DEFAULT_BUCKET, originMoved } from '../credentials/index.ts';
import { EngineError, failure, success, type Envelope } from '../envelope/index.ts';
import { getAt, setAt } from '../json-pointer/index.ts';
import type { Logger } from '../log/index.ts';
import type { ActivityLog } from '../activity/index.ts';
import type { Workspace } from '../workspace/index.ts';
import type { Connections } from '../connections/index.ts';
import type { AppVersionRow } from '../store/index.ts';
import type { Coordinator } from '../coordination/index.ts';
import { Dispatcher, type Connection, type DispatchLimits, type ProviderResponse } from './dispatch.ts';
import { buildRequest, reachesAnother, withQueryCredential, type ProviderRequest } from './request.ts';
import { InputValidators } from './validation.ts';

export { Dispatcher, type Connection } from './dispatch.ts';
export { addInputFormats, inputSchemaOf, patternMeaning, requestValidationError } from './validation.ts';

export interface Selectors {
  endUserRef?: string | undefined;
  authType?: 'api_key' | 'oauth2' | undefined;
  authName?: string | undefined;
  resourceId?: string | undefined;
}

export interface CallScope {
  surface: 'rest' | 'grpc' | 'mcp';
  versionId: string;
  tokenId: string | null;
  /** service → pinned version, from the SDK or MCP version. */
  services: ReadonlyMap<string, string>;
  /** Whether the version (and token allowlist) admits this public operation ID. */
  admits(operationId: string): boolean;
  resultCapBytes: number;
  signal?: AbortSignal | undefined;
  /** The caller's connection (REST): the call is cancelled when it closes. */
  connection?: Connection | undefined;
  /** A token's fixed selectors: authoritative over the caller's. */
  binding?: Selectors | null | undefined;
}

export interface CallRequest {
  operation: string;
  input?: Record<string, unknown> | undefined;
  /** `{ maxPages: N }`; any other shape is refused as ENGINE_PAGINATION_INVALID. */
  pagination?: unknown;
  selectors?: Selectors | undefined;
}

export interface CallResult {
  envelope: Envelope;
  /** True when a provider answered; REST then replies 200 whatever the provider's status. */
  providerAnswered: boolean;
  receiptId: string;
  /** Time spent waiting on the provider (all pages), as recorded on the receipt. */
  providerDurationMs: number;
  /**
   * The JSON text of `envelope.data` when it is the provider's own JSON body (secret redacted),
   * so a surface can splice it into its reply instead of re-serialising the parsed value.
   */
  dataJson?: string | undefined;
  /**
   * `envelope.error.details` to serialise instead, when the provider's error body holds integers
   * past 2^53: its `providerBody` keeps their digits (JSON.rawJSON). Never handed to a script.
   */
  exactDetails?: Record<string, unknown> | undefined;
  /** Set when a caller bound ended the traversal with pages left: the provider has more. */
  continuation?: Continuation | undefined;
}

/** Where a bounded traversal stopped: more pages follow; `input` holds the page input that reads on (not for Link-header paging). */
export interface Continuation {
  more: true;
  input?: Record<string, unknown>;
}

interface Outcome {
  envelope: Envelope;
  providerAnswered: boolean;
  pages: number;
  durationMs: number;
  bytes: number;
  sha256: string | null;
  dataJson?: string | undefined;
  exactDetails?: Record<string, unknown> | undefined;
  continuation?: Continuation | undefined;
}

/** 404 for a well-formed version ID no SDK app has (docs/architecture.md, the result envelope); a version of another app stays 401. */
export const unknownVersion = (versionId: string) =>
  new EngineError('ENGINE_NOT_FOUND', `no SDK version ${versionId} exists; \`svc-cli sdk list\` shows each app's latest version`, { details: { field: 'version_id' } });

const NO_SELECTORS: Selectors = Object.freeze({});
/** The outcome of a call that reached no provider. */
const refusedOutcome = (err: EngineError): Outcome => ({ envelope: err.toEnvelope(), providerAnswered: false, pages: 0, durationMs: 0, bytes: 0, sha256: null });

/** Longest operation name a receipt keeps for a refused call (a script may name anything). */
const MAX_RECORDED_OPERATION = 300;

/** A public operation ID resolved within a call's scope. */
interface ResolvedOperation {
  op: OperationSpec;
  service: string;
  version: string;
}

/** The auth method a provider request uses and its secret (null: the service needs none). */
interface Credential {
  auth: ApiKeyAuth | undefined;
  secret: string | null;
  /**
   * OAuth only: a fresh access token after the provider answered 401 to this one (revoked or
   * expired early, or one whose expiry the provider never said). A 401 means the request was not
   * acted on, so it is sent once more with the new token.
   */
  renew?: () => Promise<string>;
}

/** Longest value of each selector (the spec's Selectors schema); authType is an enum. */
const SELECTOR_MAX_LENGTH: Readonly<Record<keyof Selectors, number>> = { endUserRef: 200, authType: 0, authName: 64, resourceId: 200 };

/**
 * The caller's selectors as the spec's Selectors schema allows them. Anything else is refused with
 * ENGINE_INVALID_INPUT naming the field: a misspelt selector must not quietly pick another credential.
 */
/**
 * Text a caller names things with (selectors, idempotency keys, operation IDs), as the spec's
 * patterns allow it: no control characters (PostgreSQL TEXT cannot hold NUL) and no unpaired
 * surrogates (a store keeping UTF-8 turns each into U+FFFD, so two names would become one).
 */
export const isPlainText = (value: string): boolean => PLAIN_TEXT.test(value);
const PLAIN_TEXT = /^[^\p{Cc}\p{Cs}]+$/u;

export function checkSelectors(value: unknown, field = 'selectors'): Selectors | undefined {
  if (value === undefined) return undefined;
  const refuse = (at: string, message: string) => new EngineError('ENGINE_INVALID_INPUT', `${at}: ${message}`, { details: { field: at } });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw refuse(field, 'must be an object { endUserRef?, authType?, authName?, resourceId? }');
  }
  for (const [key, v] of Object.entries(value)) {
    const at = `${field}.${key}`;
    if (!Object.hasOwn(SELECTOR_MAX_LENGTH, key)) throw refuse(at, 'is not a selector (allowed: endUserRef, authType, authName, resourceId)');
    if (key === 'authType') {
      if (v !== 'api_key' && v !== 'oauth2') throw refuse(at, "must be 'api_key' or 'oauth2'");
    } else if (typeof v !== 'string' || v.length === 0 || v.length > SELECTOR_MAX_LENGTH[key as keyof Selectors]) {
      throw refuse(at, `must be a string of 1 to ${SELECTOR_MAX_LENGTH[key as keyof Selectors]} characters`);
    } else if (!isPlainText(v)) {
      // A store keeping UTF-8 would turn an unpaired surrogate into U+FFFD: two references, one connection.
      throw refuse(at, 'must not hold control characters or unpaired UTF-16 surrogates');
    }
  }
  return value as Selectors;
}

/** The selectors a binding fixes (its defined values), or NO_SELECTORS when it fixes none. */
function definedOnly(o: Selectors | null | undefined): Selectors {
  if (!o) return NO_SELECTORS;
  const defined = Object.entries(o).filter(([, v]) => v !== undefined && v !== null);
  return defined.length ? (Object.fromEntries(defined) as Selectors) : NO_SELECTORS;
}

/** A service version's API-key and OAuth methods, found once per catalog index. */
const authMethods = new WeakMap<ServiceIndex, { apiKey: ApiKeyAuth | undefined; oauth: ServiceIndex['auth'][number] | undefined }>();
function authOf(index: ServiceIndex) {
  let methods = authMethods.get(index);
  if (!methods) {
    methods = { apiKey: index.auth.find((a): a is ApiKeyAuth => a.type === 'api_key'), oauth: index.auth.find((a) => a.type === 'oauth2') };
    authMethods.set(index, methods);
  }
  return methods;
}

const sha256 = (data: Buffer | string) => hash('sha256', data, 'hex');

let isoMs = -1;
let isoText = '';
/** `new Date().toISOString()`, formatted once per millisecond. */
function nowIso(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
}

/** JSON.rawJSON and JSON.isRawJSON (in V8 since Node 21), not yet in TypeScript's lib. */
const RawJson = JSON as unknown as { rawJSON(text: string): object; isRawJSON(value: unknown): value is { readonly rawJSON: string } };

/** A run of 16 digits: an integer past 2^53 (16 digits) written out in full has one. */
const LONG_DIGITS = /\d{16}/;

/**
 * A page's JSON with each integer a double cannot hold (past ±2^53) kept as its source text
 * (JSON.rawJSON), so JSON.stringify writes the provider's own digits; undefined when the page
 * has none. The cheap digit test spares the usual page the slower parse with a reviver.
 */
function exactParse(text: string | undefined): unknown {
  if (text === undefined || !LONG_DIGITS.test(text)) return undefined;
  let kept = false;
  let value: unknown;
  try {
    value = JSON.parse(text, (_key, v: unknown, context?: { source?: string }) => {
      if (typeof v !== 'number' || Number.isSafeInteger(v) || !Number.isInteger(v) || context?.source === undefined) return v;
      kept = true;
      return RawJson.rawJSON(context.source);
    });
  } catch (err) {
    if (err instanceof RangeError) return undefined; // nested too deeply for the reviver: joined as parsed, or refused when joined
    throw err;
  }
  return kept ? value : undefined;
}

/**
 * The `rel="next"` target of a Link header (RFC 8288). Provider text: parsed in one pass with
 * indexOf and split, never a backtracking regex (one such took a second per 16 KiB header).
 */
function nextLink(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return undefined;
  let at = 0;
  for (;;) {
    const open = value.indexOf('<', at);
    const close = open < 0 ? -1 : value.indexOf('>', open + 1);
    if (close < 0) return undefined;
    // The link's parameters run to the next comma outside a quoted string.
    let end = close + 1;
    for (let quoted = false; end < value.length && (quoted || value[end] !== ','); end++) if (value[end] === '"') quoted = !quoted;
    if (relIsNext(value.slice(close + 1, end))) return value.slice(open + 1, close);
    at = end + 1;
  }
}

/** Whether the first `rel` parameter of `;a=b;rel="x next"` lists `next` among its space-separated types. */
function relIsNext(params: string): boolean {
  for (const param of params.split(';')) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'rel') continue;
    let types = param.slice(eq + 1).trim();
    if (types.length >= 2 && types.startsWith('"') && types.endsWith('"')) types = types.slice(1, -1);
    return types.split(/[ \t]+/).some((type) => type.toLowerCase() === 'next');
  }
  return false;
}

/**
 * The call scope of an SDK version on one surface (REST or gRPC), built once per version: versions
 * are immutable, so their service pins and selected operations never change.
 */
export function versionScopes(surface: 'rest' | 'grpc', resultCapBytes: number): (version: AppVersionRow) => Omit<CallScope, 'tokenId'> {
  const scopes = new Map<string, Omit<CallScope, 'tokenId'>>();
  return (version) => {
    let scope = scopes.get(version.versionId);
    if (!scope) {
      const selected = new Set(version.operations);
      scope = {
        surface,
        versionId: version.versionId,
        services: new Map(version.services.map((p) => p.split('=') as [string, string])),
        admits: (id) => selected.has(id),
        resultCapBytes,
      };
      scopes.set(version.versionId, scope);
    }
    return scope;
  };
}

/** A call's envelope as JSON text, with the provider's own JSON body spliced in when there is one. */
export function resultJson(result: CallResult): string {
  const e = result.envelope;
  if (result.dataJson !== undefined && e.ok === true && e.error === null) {
    // A caller bound that stopped before the provider's last page says so, and how to read on.
    const more = result.continuation === undefined ? '' : `,"continuation":${JSON.stringify(result.continuation)}`;
    return `{"ok":true,"status":${JSON.stringify(e.status)},"data":${result.dataJson},"error":null${more}}`;
  }
  if (result.exactDetails && e.error) return JSON.stringify({ ...e, error: { ...e.error, details: result.exactDetails } });
  return JSON.stringify(e);
}

/**
 * Where a Link-header traversal stopped by a caller bound reads on: the operation's declared query
 * parameters its next link changes (GitHub's `page`), typed as declared; `{ more: true }` alone when
 * the link changes none (a next link that is an opaque URL cannot be passed through the Engine).
 */
function linkContinuation(op: OperationSpec, input: Record<string, unknown>, nextUrl: string): Continuation {
  const query = new URL(nextUrl).searchParams;
  const changed: Record<string, unknown> = {};
  for (const p of op.parameters) {
    if (p.in !== 'query') continue;
    const value = query.get(p.name);
    if (value === null || String(input[inputKey(p)] ?? '') === value) continue;
    const type = (p.schema as { type?: unknown }).type;
    changed[inputKey(p)] = (type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return Object.keys(changed).length ? { more: true, input: changed } : { more: true };
}

export class Executor {
  private readonly catalog: Catalog;
  private readonly workspace: Workspace;
  private readonly vault: SecretVault;
  private readonly activity: ActivityLog;
  private readonly connections: Connections;
  private readonly dispatcher: Dispatcher;
  private readonly validators = new InputValidators();
  private readonly log: Logger;
  private readonly providerTimeoutMs: number;
  private readonly rateLimit: { perMinute: number; coordinator: Coordinator } | undefined;

  constructor(deps: {
    catalog: Catalog;
    workspace: Workspace;
    vault: SecretVault;
    activity: ActivityLog;
    connections: Connections;
    dispatcher: Dispatcher;
    log: Logger;
    providerTimeoutMs: number;
    /** Provider calls per token per minute, counted across replicas by the coordinator. */
    rateLimit?: { perMinute: number; coordinator: Coordinator } | undefined;
  }) {
    this.catalog = deps.catalog;
    this.workspace = deps.workspace;
    this.vault = deps.vault;
    this.activity = deps.activity;
    this.connections = deps.connections;
    this.dispatcher = deps.dispatcher;
    this.log = deps.log;
    this.providerTimeoutMs = deps.providerTimeoutMs;
    this.rateLimit = deps.rateLimit;
  }

  /** Counts the call against its token's per-minute limit; refuses it, before anything is sent, past the limit. */
  private async checkRate(scope: CallScope): Promise<void> {
    if (!this.rateLimit || !scope.tokenId) return;
    const { perMinute, coordinator } = this.rateLimit;
    let hit: { count: number; resetInMs: number };
    try {
      hit = await coordinator.hit(`token:${scope.tokenId}`, 60_000);
    } catch (err) {
      // The limit protects providers and quotas; a failing coordinator must not stop every call (a
      // Redis outage does not get here: the coordinator then counts per replica).
      this.log.warn({ err: (err as { code?: string }).code ?? 'unavailable' }, 'rate limit not checked: coordination unavailable');
      return;
    }
    if (hit.count > perMinute) {
      const retryAfterMs = Math.max(0, hit.resetInMs);
      throw new EngineError('ENGINE_RATE_LIMITED', `this token may make ${perMinute} provider calls per minute; retry in ${Math.ceil(retryAfterMs / 1000)} s`, {
        retryable: true,
        details: { limit_per_minute: perMinute, retry_after_ms: retryAfterMs },
      });
    }
  }

  /**
   * Records the receipt of a call refused before it reached `call` (an MCP script's call() outside
   * the token's allowlist, or refused on authorisation or pagination), as `call` does for its own.
   */
  refused(scope: CallScope, operation: string, err: EngineError): void {
    const recorded = operation.length > MAX_RECORDED_OPERATION ? `${operation.slice(0, MAX_RECORDED_OPERATION - 1)}…` : operation;
    this.record(scope, recorded, nowIso(), refusedOutcome(err));
  }

  async call(scope: CallScope, req: CallRequest): Promise<CallResult> {
    const startedAt = nowIso();
    let outcome: Outcome;
    try {
      outcome = await this.run(scope, req);
    } catch (err) {
      const engineError =
        err instanceof EngineError
          ? err
          : (this.log.error({ err, operation: req.operation }, 'execution failed unexpectedly'),
            new EngineError('ENGINE_INTERNAL', 'The Engine failed unexpectedly; the failure was logged.', { providerExecution: 'unknown' }));
      outcome = refusedOutcome(engineError);
    }
    return {
      envelope: outcome.envelope,
      providerAnswered: outcome.providerAnswered,
      providerDurationMs: outcome.durationMs,
      receiptId: this.record(scope, req.operation, startedAt, outcome),
      dataJson: outcome.dataJson,
      exactDetails: outcome.exactDetails,
      continuation: outcome.continuation,
    };
  }

  /** The call's activity receipt; returns its ID. */
  private record(scope: CallScope, operation: string, startedAt: string, outcome: Outcome): string {
    return this.activity.record({
      versionId: scope.versionId,
      operation,
      surface: scope.surface,
      tokenId: scope.tokenId,
      startedAt,
      providerDurationMs: Math.round(outcome.durationMs * 1000) / 1000,
      pages: outcome.pages,
      status: outcome.envelope.status,
      ok: outcome.envelope.ok,
      bytes: outcome.bytes,
      sha256: outcome.sha256,
      errorCode: outcome.envelope.error?.code ?? null,
    });
  }

  /** resolveOperation, first looking for a service version another replica imported when this one does not know it. */
  async resolve(scope: CallScope, operationId: string): Promise<ResolvedOperation> {
    try {
      return this.resolveOperation(scope, operationId);
    } catch (err) {
      const dot = operationId.indexOf('.');
      const service = dot > 0 ? operationId.slice(0, dot) : '';
      const pinned = scope.services.get(service);
      if (!(err instanceof EngineError) || err.code !== 'ENGINE_UNKNOWN_OPERATION' || !pinned || this.catalog.summary(service, pinned)) throw err;
      await this.catalog.ensure(service, pinned);
      return this.resolveOperation(scope, operationId);
    }
  }

  /** Resolves a public operation ID within the scope, or throws 404/403. */
  resolveOperation(scope: CallScope, operationId: string): ResolvedOperation {
    const dot = operationId.indexOf('.');
    const service = dot > 0 ? operationId.slice(0, dot) : '';
    const version = scope.services.get(service);
    const op = version ? this.catalog.operation(service, version, operationId) : undefined;
    if (!op || !version) {
      throw new EngineError('ENGINE_UNKNOWN_OPERATION', `unknown operation '${operationId}' in this version`, { details: { field: 'operation' } });
    }
    if (!scope.admits(operationId)) {
      throw new EngineError('ENGINE_FORBIDDEN_OPERATION', `operation '${operationId}' is not selected in this version`, {
        details: { field: 'operation' },
      });
    }
    return { op, service, version };
  }

  /** Pagination rule 5: an invalid bound is refused before anything reaches the provider. */
  checkPagination(op: OperationSpec, pagination: CallRequest['pagination']): void {
    if (pagination === undefined) return;
    const policy = op.pagination;
    const max = (pagination as { maxPages?: unknown } | null)?.maxPages;
    const refuse = (message: string) =>
      new EngineError('ENGINE_PAGINATION_INVALID', message, {
        details: { field: 'pagination.maxPages', supported: Boolean(policy), caller_bound_supported: policy?.callerBound ?? false, ...(policy ? { engine_max_pages: policy.engineMaxPages } : {}) },
      });
    if (typeof pagination !== 'object' || pagination === null || Array.isArray(pagination)) throw refuse('pagination must be an object { maxPages: N }');
    const extra = Object.keys(pagination).filter((k) => k !== 'maxPages');
    if (extra.length) throw refuse(`pagination has unknown property '${extra[0]}'; only maxPages is accepted`);
    if (!policy) throw refuse(`operation '${op.id}' does not support pagination; call it without a pagination bound`);
    if (!policy.callerBound) throw refuse(`operation '${op.id}' does not accept a caller bound; call it without one and the Engine pages to the end`);
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) throw refuse('pagination.maxPages is required and must be a positive integer');
    if (max >= policy.engineMaxPages) {
      throw refuse(`pagination.maxPages must be strictly lower than the Engine limit of ${policy.engineMaxPages} for '${op.id}'`);
    }
  }

  private async run(scope: CallScope, req: CallRequest): Promise<Outcome> {
    let resolved: ResolvedOperation;
    try {
      resolved = this.resolveOperation(scope, req.operation);
    } catch {
      resolved = await this.resolve(scope, req.operation); // a service version another replica imported, or the same refusal
    }
    const { op, service, version } = resolved;
    const input = req.input ?? {};
    const index = this.catalog.get(service, version)!;
    this.validators.validate(index, op, input);
    this.checkPagination(op, req.pagination);
    const asked = checkSelectors(req.selectors);

    const enabledNow = this.workspace.getSync(service);
    const enabled = enabledNow === undefined ? await this.workspace.get(service) : enabledNow;
    if (!enabled || enabled.version !== version) {
      throw new EngineError('ENGINE_CONFLICT', `service '${service}' is not enabled at ${version} in the workspace`);
    }
    const fixed = definedOnly(scope.binding);
    // A fixed binding is authoritative: a token bound to an end user (or an OAuth auth name) acts
    // through that OAuth connection, never with the workspace's API key.
    if (asked?.authType === 'api_key' && (fixed.endUserRef !== undefined || fixed.authName !== undefined)) {
      throw new EngineError('ENGINE_INVALID_INPUT', `this token is bound to ${fixed.endUserRef !== undefined ? `end user '${fixed.endUserRef}'` : `auth '${fixed.authName}'`}: it calls with that OAuth connection only, never with the workspace's API key; omit selectors.authType`, {
        details: { field: 'selectors.authType' },
      });
    }
    // The caller's other selectors stand where the binding leaves them open (the interface: a binding
    // overrides a conflicting user or resource selector); a token bound to a user or an auth name
    // calls with OAuth only, so a service without it is out of its reach.
    const boundToUser = fixed.endUserRef !== undefined || fixed.authName !== undefined;
    if (boundToUser && !authOf(index).oauth) {
      throw new EngineError('ENGINE_FORBIDDEN_OPERATION', `this token is bound to ${fixed.endUserRef !== undefined ? `end user '${fixed.endUserRef}'` : `auth '${fixed.authName}'`} and calls with OAuth connections only; '${service}' has no OAuth 2.0 auth`, {
        details: { field: 'operation' },
      });
    }
    const selectors = fixed === NO_SELECTORS ? (asked ?? NO_SELECTORS) : { ...asked, ...fixed, ...(boundToUser ? { authType: 'oauth2' as const } : {}) };
    const chosen = this.credential(index, selectors, enabled.origin);
    const { auth, secret, renew } = chosen instanceof Promise ? await chosen : chosen;
    const target = { baseUrl: enabled.baseUrl, headers: index.headers, auth, secret };
    const first = buildRequest(op, input, target);
    const reached = reachesAnother(op, input, first, target.baseUrl, index.operations);
    if (reached) {
      throw new EngineError('ENGINE_INVALID_INPUT', `input/${reached.param} '${String(input[reached.param])}' would build the path of ${reached.other.id}, another operation; pass a value that names a resource of ${op.id}`, {
        details: { field: `input.${reached.param}` },
      });
    }
    // Counted last: a call refused before this point (no secret, a bad selector) is no provider call.
    if (this.rateLimit) await this.checkRate(scope);
    const limits = { maxBytes: scope.resultCapBytes, timeoutMs: this.providerTimeoutMs, signal: scope.signal, connection: scope.connection };

    if (!op.pagination) {
      const res = await this.dispatcher.send(first, limits, secret);
      const again = res.status === 401 && renew ? await this.renewed(op, input, target, renew) : undefined;
      return this.single(index, again ? await this.dispatcher.send(again.request, limits, again.secret) : res);
    }
    const bound = (req.pagination as { maxPages?: number } | undefined)?.maxPages;
    return this.traverse(index, op, op.pagination, input, first, target, limits, secret, bound, renew);
  }

  /** The request again with a renewed OAuth token, or undefined when the connection has no newer one to give. */
  private async renewed(op: OperationSpec, input: Record<string, unknown>, target: Parameters<typeof buildRequest>[2], renew: () => Promise<string>) {
    const secret = await renew();
    if (secret === target.secret) return undefined;
    const renewedTarget = { ...target, secret };
    return { request: buildRequest(op, input, renewedTarget), target: renewedTarget, secret };
  }

  /**
   * Picks the credential: an end user's OAuth connection when the (bound or caller) selectors
   * name an end user or ask for oauth2, else the bucket's API key. A promise only when the secret
   * needs I/O (an OAuth token, or a store without synchronous reads); the usual API-key call gets
   * its answer at once.
   */
  private credential(index: ServiceIndex, selectors: Selectors, origin: string): Credential | Promise<Credential> {
    const service = index.service;
    const { apiKey, oauth } = authOf(index);
    // An end user or an auth name (a connection's name) means an OAuth connection: never ignored for the API key.
    const namesConnection = selectors.endUserRef !== undefined || selectors.authName !== undefined;
    if (selectors.authType === 'api_key' && namesConnection) {
      const field = selectors.endUserRef !== undefined ? 'selectors.endUserRef' : 'selectors.authName';
      const what = selectors.endUserRef !== undefined ? "an end user's OAuth connection" : 'an OAuth connection';
      throw new EngineError('ENGINE_INVALID_INPUT', `${field} names ${what}; it does not apply with authType 'api_key' (omit it to call with the workspace's key, or omit authType)`, { details: { field } });
    }
    const wantsOAuth = selectors.authType === 'oauth2' || (selectors.authType === undefined && namesConnection);
    if (wantsOAuth) {
      if (!oauth) {
        const field = selectors.authType === 'oauth2' ? 'selectors.authType' : selectors.endUserRef !== undefined ? 'selectors.endUserRef' : 'selectors.authName';
        throw new EngineError('ENGINE_INVALID_INPUT', `service '${service}' has no OAuth 2.0 auth: ${field} does not apply (its calls use the workspace's key)`, { details: { field } });
      }
      if (!selectors.endUserRef) {
        throw new EngineError('ENGINE_INVALID_INPUT', `selectors.endUserRef is required to call '${service}' with OAuth`, { details: { field: 'selectors.endUserRef' } });
      }
      const auth: ApiKeyAuth = { name: oauth.name, type: 'api_key', in: 'header', header: 'Authorization', prefix: 'Bearer ' };
      const endUserRef = selectors.endUserRef;
      return this.connections.accessToken(service, endUserRef, selectors.authName, origin).then((token) => ({
        auth,
        secret: token,
        renew: () => this.connections.accessToken(service, endUserRef, selectors.authName, origin, token),
      }));
    }
    if (selectors.authType === 'api_key' && !apiKey) {
      throw new EngineError('ENGINE_INVALID_INPUT', `service '${service}' has no API-key auth`, { details: { field: 'selectors.authType' } });
    }
    if (!apiKey) {
      if (oauth) throw new EngineError('ENGINE_INVALID_INPUT', `service '${service}' uses OAuth connections: pass selectors.endUserRef`, { details: { field: 'selectors.endUserRef' } });
      return { auth: undefined, secret: null };
    }
    const withSecret = (secret: BoundSecret | null): Credential => {
      if (secret === null) {
        throw new EngineError('ENGINE_CREDENTIAL_MISSING', `no secret is set for '${service}'; run \`svc-cli secret set ${service} --value-stdin\``);
      }
      if (secret.origin !== origin) throw originMoved(`the secret for '${service}'`, secret.origin, origin, `svc-cli secret set ${service} --value-stdin`);
      return { auth: apiKey, secret: secret.value };
    };
    const known = this.vault.getSync(DEFAULT_BUCKET, service);
    return known === undefined ? this.vault.get(DEFAULT_BUCKET, service).then(withSecret) : withSecret(known);
  }

  /** The provider's error answer as an envelope, with its exact-digit details when the body needs them. */
  private providerFailure(index: ServiceIndex, res: ProviderResponse, extra: Record<string, unknown> = {}): Pick<Outcome, 'envelope' | 'exactDetails'> {
    const envelope = failure(res.status, {
      code: 'PROVIDER_ERROR',
      message: `${index.service} answered HTTP ${res.status}`,
      retryable: res.status >= 500 || res.status === 429,
      details: { providerBody: res.data, ...extra },
    });
    const exact = exactParse(res.json);
    return { envelope, exactDetails: exact === undefined ? undefined : { providerBody: exact, ...extra } };
  }

  private single(index: ServiceIndex, res: ProviderResponse): Outcome {
    const ok = res.status >= 200 && res.status < 300;
    return {
      ...(ok ? { envelope: success(res.status, res.data) } : this.providerFailure(index, res)),
      providerAnswered: true,
      pages: 1,
      durationMs: res.durationMs,
      bytes: res.raw.length,
      sha256: sha256(res.raw),
      dataJson: ok ? res.json : undefined,
    };
  }

  private async traverse(
    index: ServiceIndex,
    op: OperationSpec,
    policy: PaginationPolicy,
    input: Record<string, unknown>,
    first: ProviderRequest,
    target: Parameters<typeof buildRequest>[2],
    limits: DispatchLimits,
    secret: string | null,
    bound: number | undefined,
    renew?: () => Promise<string>,
  ): Promise<Outcome> {
    const maxPages = bound ?? policy.engineMaxPages;
    const items: unknown[] = [];
    // The aggregate as the REST/gRPC text must carry big integers exactly, but envelope.data keeps
    // plain numbers: raw-JSON objects do not survive the structured clone into the MCP sandbox. So
    // once a page holds such an integer, a second item list follows with those values kept exact.
    let exactItems: unknown[] | undefined;
    let exactLast: unknown;
    const origin = new URL(first.url).origin;
    // The provider timeout bounds the whole traversal, as the byte cap does: pages share it.
    const deadline = Date.now() + limits.timeoutMs;
    let request = first;
    let pageInput = input;
    let pages = 0;
    let bytes = 0;
    let durationMs = 0;
    let last: ProviderResponse | undefined;
    let continuation: Continuation | undefined;
    const partial = () => ({ providerAnswered: true, pages, durationMs, bytes, sha256: null });
    /** A provider answer that breaks the pagination policy: 502, naming the page, with what was read. */
    const mismatch = (message: string): Outcome => ({
      envelope: failure(502, { code: 'PROVIDER_ERROR', message, retryable: false, details: { page: pages } }),
      ...partial(),
    });

    for (;;) {
      const timeoutMs = Math.max(1, deadline - Date.now());
      let res: ProviderResponse;
      const sentAt = performance.now();
      try {
        res = await this.dispatcher.send(request, { ...limits, timeoutMs, maxBytes: limits.maxBytes - bytes, capBytes: limits.maxBytes }, secret);
      } catch (err) {
        // A later page that failed (never sent, reset, timed out, past the result cap): the earlier
        // pages did reach the provider, and the receipt says so, with the time spent on this one.
        if (pages === 0 || !(err instanceof EngineError)) throw err;
        const sent = err.providerExecution !== 'not_started';
        if (sent) durationMs += performance.now() - sentAt;
        const later = new EngineError(err.code, `${err.message} (page ${pages + 1}; pages 1–${pages} were read)`, {
          details: { ...err.details, page: pages + 1 },
          retryable: err.retryable,
          providerExecution: sent ? err.providerExecution : 'completed',
        });
        // A page that failed once sent answers with its own status (502, 504, 413), as a first page would.
        return { envelope: later.toEnvelope(), ...partial(), ...(sent ? { providerAnswered: false } : {}) };
      }
      if (res.status === 401 && renew) {
        // A token the provider refused on the first page is renewed once; later pages use the new one.
        const again = pages === 0 ? await this.renewed(op, pageInput, target, renew) : undefined;
        renew = undefined;
        if (again) {
          durationMs += res.durationMs;
          ({ request, target, secret } = again);
          res = await this.dispatcher.send(request, { ...limits, timeoutMs: Math.max(1, deadline - Date.now()), maxBytes: limits.maxBytes, capBytes: limits.maxBytes }, secret);
        }
      }
      pages++;
      bytes += res.raw.length;
      durationMs += res.durationMs;
      if (res.status < 200 || res.status >= 300) {
        return { ...this.providerFailure(index, res, { page: pages }), ...partial(), sha256: sha256(res.raw) };
      }
      const pageItems = getAt(res.data, policy.items);
      if (!Array.isArray(pageItems)) {
        return mismatch(`page ${pages} of ${op.id} has no array at '${policy.items}'; the provider's answer does not match the pagination policy`);
      }
      const exact = exactParse(res.json);
      if (exact !== undefined) exactItems ??= items.slice();
      if (exactItems) for (const item of exact === undefined ? pageItems : (getAt(exact, policy.items) as unknown[])) exactItems.push(item);
      for (const item of pageItems) items.push(item);
      last = res;
      exactLast = exact;

      let next: ProviderRequest | undefined;
      const stopped = policy.stop !== undefined && !getAt(res.data, policy.stop);
      if (policy.style === 'link_header') {
        const link = nextLink(res.headers.link);
        if (link) {
          let url: URL;
          try {
            url = new URL(link, request.url);
          } catch {
            // Not thrown on: the parser's error carries the request URL, which may hold a query-string key.
            return mismatch(`the provider's next-page link on page ${pages} is not a valid URL; the Engine cannot follow it`);
          }
          if (url.origin !== origin) {
            return mismatch(`the provider's next-page link points to another origin (${url.origin}); the Engine does not send credentials there`);
          }
          next = { ...request, url: withQueryCredential(url.href, target.auth, target.secret) };
        }
      } else if (!stopped) {
        const key = policy.pageInput!;
        let value: unknown;
        // A cursor may follow an empty page; page and offset styles end on one.
        if (policy.style === 'cursor') {
          value = getAt(res.data, policy.continuation!);
          if (value !== null && typeof value === 'object') {
            // An object or array cannot be a query value: it would be spread into other parameters.
            return mismatch(`page ${pages} of ${op.id} has ${Array.isArray(value) ? 'an array' : 'an object'} at '${policy.continuation}' where the pagination policy expects a cursor; the provider's answer does not match the policy`);
          }
          // A cursor past 2^53 goes back as its digits (a string: it is a path, query or header value).
          const exactValue = exact === undefined ? undefined : getAt(exact, policy.continuation!);
          if (RawJson.isRawJSON(exactValue)) value = exactValue.rawJSON;
        } else if (pageItems.length > 0) value = policy.style === 'page' ? Number(pageInput[key] ?? 1) + 1 : Number(pageInput[key] ?? 0) + pageItems.length;
        if (value !== undefined && value !== null && value !== '') {
          pageInput = { ...pageInput, [key]: value };
          try {
            next = buildRequest(op, pageInput, target);
          } catch (err) {
            if (!(err instanceof EngineError)) throw err;
            // The provider's cursor, not the caller's input, is what cannot be sent.
            return mismatch(`page ${pages} of ${op.id} gives a continuation at '${policy.continuation ?? key}' that cannot be sent back (${err.message.replace(/^input\/\S+ /, '')}); the provider's answer does not match the pagination policy`);
          }
        } else if (policy.stop !== undefined) {
          // The provider says more pages follow but gives nothing to continue from: never a silent partial result.
          return mismatch(
            policy.style === 'cursor'
              ? `page ${pages} of ${op.id} says more pages follow ('${policy.stop}') but has no continuation at '${policy.continuation}'; the provider's answer does not match the pagination policy`
              : `page ${pages} of ${op.id} is empty but says more pages follow ('${policy.stop}'); the provider's answer does not match the pagination policy`,
          );
        }
      }
      if (!next || (policy.style === 'link_header' && stopped)) break;
      if (next.url === request.url) {
        // The same cursor or next link again: reading it would return this page again, up to the limit.
        return mismatch(`page ${pages} of ${op.id} leads back to itself (its continuation did not change); the Engine stops rather than read the same page again`);
      }
      if (pages >= maxPages) {
        if (bound !== undefined) {
          // Caller bound: return what was read, the provider's continuation intact, and say that more follow.
          continuation = policy.style === 'link_header' ? linkContinuation(op, pageInput, next.url) : { more: true, input: { [policy.pageInput!]: pageInput[policy.pageInput!] } };
          break;
        }
        const limit = new EngineError(
          'ENGINE_PAGINATION_LIMIT',
          `${op.id} has more than ${policy.engineMaxPages} pages (the Engine limit); narrow the provider query or pass a smaller pagination bound`,
          { details: { pages, engine_max_pages: policy.engineMaxPages }, providerExecution: 'completed' },
        );
        return { envelope: limit.toEnvelope(), ...partial(), providerAnswered: false };
      }
      request = next;
    }
    const data = setAt(last!.data, policy.items, items);
    let json: string;
    try {
      // The text the caller receives (spliced by REST and gRPC), which the receipt's bytes and hash describe.
      json = JSON.stringify(exactItems ? setAt(exactLast ?? last!.data, policy.items, exactItems) : data);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      return mismatch(`the pages of ${op.id} nest too deeply for the Engine to join them`);
    }
    return { envelope: success(last!.status, data), providerAnswered: true, pages, durationMs, bytes: Buffer.byteLength(json), sha256: sha256(json), dataJson: json, continuation };
  }
}
