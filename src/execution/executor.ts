// The execution path behind every surface (REST, gRPC, MCP, Unified steps): resolve and authorise
// the operation, validate input, pick the credential, dispatch, traverse pages, write a receipt.
// Surfaces reach it through src/calls, which builds the call's scope.
import { operationHints, type Catalog, type OperationSpec, type SafetyHints } from '../catalog/index.ts';
import { EngineError } from '../envelope/index.ts';
import type { Logger } from '../log/index.ts';
import { traceOfReceipt } from '../telemetry/index.ts';
import type { ActivityLog } from '../activity/index.ts';
import type { Workspace } from '../workspace/index.ts';
import type { Connections } from '../connections/index.ts';
import type { SecretVault } from '../credentials/index.ts';
import type { Coordinator } from '../coordination/index.ts';
import type { Dispatcher } from './dispatch.ts';
import { authOf, pickCredential } from './credential.ts';
import { keyScope, providerKey } from './idempotency.ts';
import { refusedOutcome, singleOutcome } from './outcomes.ts';
import { checkPagination, traverse } from './pagination.ts';
import { readOnlyRefusal } from './read-only.ts';
import { buildRequest, reachesAnother, renewedRequest, secretForms, type ProviderRequest } from './request.ts';
import { IDEMPOTENT_METHODS, retryPlan, sendWithRetries } from './retry.ts';
import { checkSelectors, definedOnly, NO_SELECTORS } from './selectors.ts';
import type { CallRequest, CallResult, CallScope, Outcome, ResolvedOperation } from './types.ts';
import { InputValidators } from './validation.ts';

/** Methods that read: their calls' receipts are batched (Executor.call). */
const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * How long a write's receipt waits for those of other writes in flight before its commit starts,
 * when none is being committed: a write that finishes meanwhile shares the commit instead of
 * paying the next (docs/benchmarks/durable-receipts.md).
 */
const GATHER_MS = 1;

/** Operations `known` keeps per version at most (a version selects a few hundred at most). */
const MAX_KNOWN_PER_VERSION = 10_000;

/** Longest operation name a receipt keeps for a refused call (a script may name anything). */
const MAX_RECORDED_OPERATION = 300;

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

export class Executor {
  private readonly catalog: Catalog;
  private readonly workspace: Workspace;
  private readonly credentialSources: { vault: SecretVault; connections: Connections };
  private readonly activity: ActivityLog;
  private readonly dispatcher: Dispatcher;
  private readonly validators = new InputValidators();
  /** Operations found per version (see `known`), by its scope's services map. */
  private readonly resolvedByVersion = new WeakMap<ReadonlyMap<string, string>, Map<string, ResolvedOperation>>();
  private readonly log: Logger;
  private readonly providerTimeoutMs: number;
  private readonly durableWrites: boolean;
  /** Calls of write operations between their start and their receipt (durableWrites only). */
  private writesInFlight = 0;
  private readonly attemptTimeoutMs: number | undefined;
  private readonly idempotencySecret: Buffer;
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
    /** Whether a call that may have changed data is answered only once its receipt is committed (SVC_RECEIPT_WRITES; default true). */
    durableWrites?: boolean;
    /** One provider attempt's timeout when it may be retried (SVC_PROVIDER_ATTEMPT_TIMEOUT_MS); none: the call's whole budget. */
    attemptTimeoutMs?: number | undefined;
    /** The key of the idempotency keys derived for providers (src/execution/idempotency.ts, providerKey). */
    idempotencySecret: Buffer;
    /** Provider calls per token per minute, counted across replicas by the coordinator. */
    rateLimit?: { perMinute: number; coordinator: Coordinator } | undefined;
  }) {
    this.catalog = deps.catalog;
    this.workspace = deps.workspace;
    this.credentialSources = { vault: deps.vault, connections: deps.connections };
    this.activity = deps.activity;
    this.dispatcher = deps.dispatcher;
    this.log = deps.log;
    this.providerTimeoutMs = deps.providerTimeoutMs;
    this.durableWrites = deps.durableWrites ?? true;
    this.attemptTimeoutMs = deps.attemptTimeoutMs;
    this.idempotencySecret = deps.idempotencySecret;
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
   * the token's allowlist, a Unified call refused before any step), as `call` does for its own.
   */
  recordRefusal(scope: CallScope, operation: string, err: EngineError): void {
    const recorded = operation.length > MAX_RECORDED_OPERATION ? `${operation.slice(0, MAX_RECORDED_OPERATION - 1)}…` : operation;
    this.record(scope, recorded, nowIso(), refusedOutcome(err));
  }

  async call(scope: CallScope, req: CallRequest): Promise<CallResult> {
    const startedAt = nowIso();
    const writing = this.durableWrites && this.writes(scope, req.operation);
    if (writing) this.writesInFlight++;
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
    const receiptId = this.record(scope, req.operation, startedAt, outcome);
    if (writing) this.writesInFlight--;
    // A call that may have changed data is answered only once its receipt is committed, so a crash
    // cannot lose the receipt of an answered write; reads stay batched (src/activity).
    if (writing && this.reached(outcome)) await this.activity.flush(this.writesInFlight > 0 ? GATHER_MS : 0);
    return {
      envelope: outcome.envelope,
      providerAnswered: outcome.providerAnswered,
      providerDurationMs: outcome.durationMs,
      receiptId,
      dataJson: outcome.dataJson,
      exactDetails: outcome.exactDetails,
      continuation: outcome.continuation,
      attempts: outcome.attempts,
      keyForwarded: outcome.keyForwarded,
    };
  }

  /** Whether the operation may change data: its method is not a read (GET, HEAD, OPTIONS), or it is not known here. */
  private writes(scope: CallScope, operationId: string): boolean {
    const known = this.known(scope, operationId);
    return known === undefined || !READ_METHODS.has(known.op.method);
  }

  /**
   * The operation `operationId` names at the version the scope pins, found once per version and
   * operation: a scope's services map is its version's own (src/calls/scopes.ts), and a service
   * version never changes once in the catalog. Not found is not kept (another replica may import it).
   * Whether the scope admits it is the caller's check, on every call.
   */
  private known(scope: CallScope, operationId: string): ResolvedOperation | undefined {
    let ops = this.resolvedByVersion.get(scope.services);
    if (!ops) this.resolvedByVersion.set(scope.services, (ops = new Map()));
    let known = ops.get(operationId);
    if (known === undefined) {
      const dot = operationId.indexOf('.');
      const service = dot > 0 ? operationId.slice(0, dot) : '';
      const version = scope.services.get(service);
      const op = version ? this.catalog.operation(service, version, operationId) : undefined;
      if (!op || !version) return undefined;
      known = { op, service, version, index: this.catalog.get(service, version)! };
      if (ops.size < MAX_KNOWN_PER_VERSION) ops.set(operationId, known);
    }
    return known;
  }

  /** Whether the call's request reached the provider, or may have: one refused before it was sent changed nothing. */
  private reached(outcome: Outcome): boolean {
    return outcome.providerAnswered || outcome.envelope.error?.details?.provider_execution === 'unknown';
  }

  /** The call's activity receipt; returns its ID. The receipt and the call's span name each other while tracing is on. */
  private record(scope: CallScope, operation: string, startedAt: string, outcome: Outcome): string {
    const trace = traceOfReceipt();
    const id = this.activity.record({
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
      attempts: outcome.attempts ?? null,
      traceId: trace?.traceId ?? null,
    });
    trace?.named(id);
    return id;
  }

  /**
   * The checks a call passes before anything is dispatched that need no input: the operation
   * exists and the scope admits it, and the caller's pagination bound is valid. A refusal leaves a
   * receipt, as the same refusal inside `call` does.
   */
  async check(scope: CallScope, operationId: string, pagination: unknown, input?: unknown): Promise<void> {
    try {
      const { op, index } = await this.resolve(scope, operationId);
      // Checked before a person is asked to approve the call, so an approval is never spent on input the call refuses.
      if (input !== undefined) this.validators.validate(index, op, input);
      checkPagination(op, pagination);
    } catch (err) {
      if (err instanceof EngineError) this.recordRefusal(scope, operationId, err);
      throw err;
    }
  }

  /** The safety hints of `operationId` at the scope's pinned version (whether the scope admits it or not); undefined when unknown. */
  hints(scope: CallScope, operationId: string): SafetyHints | undefined {
    return this.catalog.hints(operationId, scope.services);
  }

  /** The pagination bound a Unified step passes to `operationId` (in the scope's pinned version), checked; admission is the step's own check. */
  checkBound(scope: CallScope, operationId: string, pagination: unknown): void {
    checkPagination(this.resolveOperation({ ...scope, admits: () => true }, operationId).op, pagination);
  }

  /** resolveOperation, first looking for a service version another replica imported when this one does not know it. */
  private async resolve(scope: CallScope, operationId: string): Promise<ResolvedOperation> {
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
  private resolveOperation(scope: CallScope, operationId: string): ResolvedOperation {
    const known = this.known(scope, operationId);
    if (!known) {
      throw new EngineError('ENGINE_UNKNOWN_OPERATION', `unknown operation '${operationId}' in this version`, { details: { field: 'operation' } });
    }
    if (!scope.admits(operationId)) {
      throw new EngineError('ENGINE_FORBIDDEN_OPERATION', `operation '${operationId}' is not selected in this version`, {
        details: { field: 'operation' },
      });
    }
    if (scope.readOnly && !operationHints(known.index, known.op).readOnly) throw readOnlyRefusal(operationId);
    return known;
  }

  private async run(scope: CallScope, req: CallRequest): Promise<Outcome> {
    let resolved: ResolvedOperation;
    try {
      resolved = this.resolveOperation(scope, req.operation);
    } catch {
      resolved = await this.resolve(scope, req.operation); // a service version another replica imported, or the same refusal
    }
    const { op, service, version, index } = resolved;
    const input = req.input ?? {};
    this.validators.validate(index, op, input);
    checkPagination(op, req.pagination);
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
    // The caller's other selectors stand where the binding leaves them open (a binding overrides a
    // conflicting user or resource selector: docs/guides/recipes.md); a token bound to a user or an
    // auth name calls with OAuth only, so a service without it is out of its reach.
    const boundToUser = fixed.endUserRef !== undefined || fixed.authName !== undefined;
    if (boundToUser && !authOf(index).oauth) {
      throw new EngineError('ENGINE_FORBIDDEN_OPERATION', `this token is bound to ${fixed.endUserRef !== undefined ? `end user '${fixed.endUserRef}'` : `auth '${fixed.authName}'`} and calls with OAuth connections only; '${service}' has no OAuth 2.0 auth`, {
        details: { field: 'operation' },
      });
    }
    const selectors = fixed === NO_SELECTORS ? (asked ?? NO_SELECTORS) : { ...asked, ...fixed, ...(boundToUser ? { authType: 'oauth2' as const } : {}) };
    const chosen = pickCredential(this.credentialSources, index, selectors, enabled.origin);
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
    // A provider that honours keys gets one derived from the caller's on a request whose method is not idempotent already.
    const keyHeader = req.idempotency && index.idempotency && !IDEMPOTENT_METHODS.has(op.method) ? index.idempotency.header.toLowerCase() : undefined;
    const keyed = (request: ProviderRequest): ProviderRequest => {
      if (keyHeader) request.headers[keyHeader] = providerKey(this.idempotencySecret, keyScope(scope.versionId, scope.tokenId), req.idempotency!.key, req.idempotency!.part);
      return request;
    };
    // Retries end within the provider timeout, and sooner when the caller stops waiting sooner.
    const plan = retryPlan(op.method, keyHeader !== undefined, index.retry?.maxAttempts, this.attemptTimeoutMs, scope.deadline);

    let outcome: Outcome;
    try {
      if (!op.pagination) {
        const res = await sendWithRetries(this.dispatcher, keyed(first), limits, secretForms(auth, secret), plan);
        const again = res.status === 401 && renew ? await renewedRequest(op, input, target, renew) : undefined;
        outcome = singleOutcome(index, again ? await sendWithRetries(this.dispatcher, keyed(again.request), limits, secretForms(auth, again.secret), plan) : res);
      } else {
        const bound = (req.pagination as { maxPages?: number } | undefined)?.maxPages;
        outcome = await traverse({ dispatcher: this.dispatcher, index, op, policy: op.pagination, input, first: keyed(first), target, limits, bound, renew, plan, keyHeader });
      }
    } catch (err) {
      // A failure after the key went out: the caller may repeat the call with its key (src/calls).
      if (!keyHeader || !(err instanceof EngineError)) throw err;
      outcome = refusedOutcome(err);
    }
    if (keyHeader) outcome.keyForwarded = true;
    return outcome;
  }
}
