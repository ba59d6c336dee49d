// The one entry of every call, whatever the surface (REST, gRPC, an MCP script's call()): the
// version looked up, the token checked against it, the scope built, the Unified or physical
// operation chosen, the checks before dispatch made, and a receipt written by the layer that runs it.
import type { Apps } from '../apps/index.ts';
import { EngineError } from '../envelope/index.ts';
import { checkIdempotencyKey, keyScope, requestHash, type CallRequest, type CallResult, type CallScope, type Executor, type IdempotencyKeys, type Selectors } from '../execution/index.ts';
import type { ApprovalRow, AppVersionRow, TokenRow } from '../store/index.ts';
import type { UnifiedOperations, UnifiedResult } from '../unified/index.ts';
import type { Approvals } from '../approvals/index.ts';
import { passApprovalGate, type AskApproval } from './approval-gate.ts';
import { allows } from './allowlist.ts';
import { keptAnswer, replayedResult } from './kept-answers.ts';
import { unknownVersion, VersionScopes, type CallContext, type Surface } from './scopes.ts';
import { tracedCall } from './traced.ts';

/**
 * A call as the REST body and the gRPC message carry it. A Unified operation takes
 * `{ input, targets, selectors?, pagination?, idempotencyKey? }`; a physical one the rest, with
 * `idempotencyKey` too.
 */
export interface CallBody {
  operation: string;
  input?: unknown;
  pagination?: unknown;
  selectors?: unknown;
  targets?: unknown;
  idempotencyKey?: unknown;
}

export type CallAnswer = { unified: false; result: CallResult } | { unified: true; result: UnifiedResult };

/** Around the dispatch of a script's call(): `dispatching` may refuse it (the script ended); `settled` follows one it let through. */
export interface DispatchHooks {
  dispatching(): void;
  settled(): void;
  /** Asks a person to approve a gated call through the MCP client, when it can (elicitation). */
  ask?: AskApproval | undefined;
}

const isUnified = (operation: string) => operation.startsWith('unified.');

const invalid = (field: string, message: string, code: 'ENGINE_INVALID_INPUT' | 'ENGINE_PAGINATION_INVALID' = 'ENGINE_INVALID_INPUT') =>
  new EngineError(code, message, { details: { field } });

export interface CallsDeps {
  sdk: Apps;
  mcp: Apps;
  executor: Executor;
  unified: UnifiedOperations;
  /** Idempotency keys in the store (shared with the Unified operations). */
  keys: IdempotencyKeys;
  /** The largest result each surface answers with. */
  resultCapBytes: Record<Surface, number>;
  /** Approvals of calls an MCP version gates (requireApproval); absent: no gate is enforced. */
  approvals?: Approvals | undefined;
}

export class Calls {
  private readonly deps: CallsDeps;
  private readonly scopes: Record<Surface, VersionScopes>;

  constructor(deps: CallsDeps) {
    this.deps = deps;
    const { resultCapBytes: cap } = deps;
    this.scopes = { rest: new VersionScopes('rest', cap.rest), grpc: new VersionScopes('grpc', cap.grpc), mcp: new VersionScopes('mcp', cap.mcp) };
  }

  /** The version `token` may call on `surface`, or 404 (no such version) / 401 (another app's). */
  private version(token: TokenRow, versionId: string, surface: Surface): AppVersionRow | Promise<AppVersionRow> {
    const apps = surface === 'mcp' ? this.deps.mcp : this.deps.sdk;
    const check = (version: AppVersionRow | null | undefined): AppVersionRow => {
      if (!version) throw unknownVersion(surface, versionId);
      if (version.name !== token.subject || token.kind !== (surface === 'mcp' ? 'mcp' : 'sdk')) {
        throw new EngineError('ENGINE_UNAUTHENTICATED', `the token is not valid for version ${versionId}`);
      }
      return version;
    };
    const cached = apps.cachedVersion(versionId);
    return cached ? check(cached) : apps.version(versionId).then(check);
  }

  /** Where `token` makes calls to one version on one surface: an MCP script opens one per run. */
  async open(token: TokenRow, versionId: string, surface: Surface, context: CallContext = {}): Promise<CallSite> {
    const version = await this.version(token, versionId, surface);
    return new CallSite(this.deps, this.scopes[surface], version, token, context);
  }

  /**
   * One call in the REST/gRPC body form. `unifiedParams: 'input'` (gRPC) reads a Unified call's
   * params from `input`, since its message has no field for targets or idempotency keys.
   */
  call(token: TokenRow, versionId: string, surface: Surface, body: CallBody, context: CallContext = {}, unifiedParams: 'body' | 'input' = 'body'): Promise<CallAnswer> {
    // No async wrapper of its own: one promise and its microtask hops fewer on every REST and gRPC call.
    return tracedCall(surface, body.operation, body.input, () => {
      const site = (version: AppVersionRow) => new CallSite(this.deps, this.scopes[surface], version, token, context).body(body, unifiedParams);
      try {
        const found = this.version(token, versionId, surface);
        return found instanceof Promise ? found.then(site) : site(found);
      } catch (err) {
        return Promise.reject(err);
      }
    });
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A Unified call's params with the key a surface carried beside them (a header, metadata, a script's options); one given both ways must be the same. */
function withKey(params: unknown, key: { value: string; field: string }): unknown {
  if (!isObject(params)) return params; // refused by the Unified operation's own checks
  if (params.idempotencyKey !== undefined && params.idempotencyKey !== key.value) {
    throw invalid(key.field, `${key.field} and idempotencyKey differ; give the key once`);
  }
  return { ...params, idempotencyKey: key.value };
}

export class CallSite {
  readonly scope: CallScope;
  private readonly deps: CallsDeps;
  private readonly scopes: VersionScopes;
  private readonly version: AppVersionRow;
  private readonly token: TokenRow;
  private readonly surfaceKey: CallContext['idempotencyKey'];

  constructor(deps: CallsDeps, scopes: VersionScopes, version: AppVersionRow, token: TokenRow, context: CallContext) {
    this.deps = deps;
    this.scopes = scopes;
    this.version = version;
    this.token = token;
    this.scope = scopes.scopeFor(version, token, context);
    this.surfaceKey = context.idempotencyKey;
  }

  /**
   * A physical call, under the caller's idempotency key when it gave one: the same key and request
   * answers the kept answer without sending anything (src/execution/idempotency.ts).
   */
  private async physical(request: CallRequest, key: { value: string; field: string } | undefined): Promise<CallAnswer> {
    if (!key) return { unified: false, result: await this.deps.executor.call(this.scope, request) };
    const value = checkIdempotencyKey(key.value, key.field);
    const keyed: CallRequest = { ...request, idempotency: { key: value } };
    const hash = requestHash({ operation: request.operation, input: request.input ?? {}, selectors: request.selectors ?? {}, pagination: request.pagination ?? null });
    const once = await this.deps.keys.once(
      { scope: keyScope(this.scope.versionId, this.scope.tokenId), key: value, requestHash: hash, field: key.field },
      () => this.deps.executor.call(this.scope, keyed),
      keptAnswer,
    );
    return { unified: false, result: once.replayed ? replayedResult(once.kept) : once.result };
  }

  /** Whether the version gates `operationId` behind a person's approval. */
  private gates(operationId: string): boolean {
    return this.deps.approvals !== undefined && this.version.requireApproval?.includes(operationId) === true;
  }

  /** The version's approval gate (src/calls/approval-gate.ts), for an operation it names: the approval the call takes. */
  private async gate(operationId: string, params: unknown, pagination: unknown, hooks: DispatchHooks): Promise<ApprovalRow | undefined> {
    const { approvals } = this.deps;
    return approvals && this.gates(operationId) ? passApprovalGate({ approvals, executor: this.deps.executor }, this.scope, operationId, params, pagination, hooks.ask) : undefined;
  }

  /**
   * Sends a script's call once the run lets it (`hooks`). An approval the call took goes back when
   * nothing was sent: the script ended first, or the call was refused before dispatch (no
   * connection, the token's rate limit), so the person's approval still serves the re-run.
   */
  private async dispatch(approval: ApprovalRow | undefined, hooks: DispatchHooks, send: () => Promise<CallAnswer>): Promise<CallAnswer> {
    const giveBack = async () => {
      if (approval) await this.deps.approvals?.giveBack(approval);
    };
    try {
      hooks.dispatching();
    } catch (err) {
      await giveBack();
      throw err;
    }
    try {
      const answer = await send();
      if (!answer.result.providerAnswered && answer.result.envelope.error?.details?.provider_execution === 'not_started') await giveBack();
      return answer;
    } catch (err) {
      if (err instanceof EngineError && err.providerExecution === 'not_started') await giveBack();
      throw err;
    } finally {
      hooks.settled();
    }
  }

  /** A call in the REST/gRPC body form (see Calls.call); a physical one's promise is physical's own (no async wrapper). */
  body(body: CallBody, unifiedParams: 'body' | 'input' = 'body'): Promise<CallAnswer> {
    try {
      return isUnified(body.operation) ? this.unifiedBody(body, unifiedParams) : this.physicalBody(body);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private async unifiedBody(body: CallBody, unifiedParams: 'body' | 'input'): Promise<CallAnswer> {
    const { operation } = body;
    let params: unknown;
    if (unifiedParams === 'input') {
      // Selectors and bounds are keyed by target inside the params; flat fields would be lost.
      for (const field of ['selectors', 'pagination'] as const) {
        if (body[field] !== undefined) throw invalid(field, `${field}: a Unified call takes ${field} keyed by target inside input_json ({ input, targets, ${field}: { <target>: … } })`);
      }
      params = body.input ?? {};
    } else {
      const { operation: _name, ...rest } = body;
      params = rest;
    }
    const key = this.surfaceKey;
    return { unified: true, result: await this.deps.unified.call(this.scope, operation, key ? withKey(params, key) : params, false, key?.field) };
  }

  private physicalBody(body: CallBody): Promise<CallAnswer> {
    const { operation } = body;
    if (body.targets !== undefined) throw invalid('targets', 'targets apply to Unified operations only');
    const surfaceKey = this.surfaceKey;
    if (surfaceKey && body.idempotencyKey !== undefined && body.idempotencyKey !== surfaceKey.value) {
      throw invalid(surfaceKey.field, `${surfaceKey.field} and idempotencyKey differ; give the key once`);
    }
    const key = surfaceKey ?? (body.idempotencyKey !== undefined ? { value: body.idempotencyKey as string, field: 'idempotencyKey' } : undefined);
    const request = { operation, input: body.input as Record<string, unknown> | undefined, pagination: body.pagination, selectors: body.selectors as Selectors | undefined };
    return this.physical(request, key);
  }

  /**
   * A script's `call(operationId, params, options)`. Refusals made before dispatch are thrown (each
   * leaves a receipt, as the same call over REST does); the script's host turns them into rejections.
   */
  async script(operationId: unknown, params: unknown, options: unknown, hooks: DispatchHooks): Promise<CallAnswer> {
    if (typeof operationId !== 'string' || !operationId) throw invalid('operationId', 'call(): operationId must be a non-empty string');
    // The version selects it but this token's allowlist does not: say so, not "not selected".
    if (this.token.allow !== null && this.scopes.selects(this.version, operationId) && !allows(this.token.allow, operationId)) {
      const outside = new EngineError('ENGINE_FORBIDDEN_OPERATION', `operation '${operationId}' is outside this token's allowlist`, { details: { field: 'operation' } });
      this.deps.executor.recordRefusal(this.scope, operationId, outside);
      throw outside;
    }
    // `{ idempotencyKey }` as the third argument: the call's key, whatever the operation.
    const key = isObject(options) && options.idempotencyKey !== undefined ? { value: options.idempotencyKey as string, field: 'options.idempotencyKey' } : undefined;
    if (isUnified(operationId)) {
      // Any other third argument is refused by the Unified operation (pagination goes inside its params, keyed by target).
      const onlyKey = key !== undefined && Object.keys(options as object).length === 1;
      const approval = await this.gate(operationId, params, undefined, hooks);
      return this.dispatch(approval, hooks, async () => ({
        unified: true,
        result: await this.deps.unified.call(this.scope, operationId, onlyKey ? withKey(params, key) : params, options !== undefined && !onlyKey, key?.field),
      }));
    }
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
      throw invalid('params', 'call(): params must be an object of the operation’s parameters (and its request body under `body`)');
    }
    let pagination: unknown;
    if (options !== undefined) {
      const extra = isObject(options) ? Object.keys(options).filter((k) => k !== 'pagination' && k !== 'idempotencyKey') : ['options'];
      if (extra.length) throw invalid('options', 'call(): the third argument takes { pagination?: { maxPages: N }, idempotencyKey?: string }', 'ENGINE_PAGINATION_INVALID');
      // `{}` asks for a bound without giving one: refused as before; a key alone asks for none.
      pagination = key !== undefined && isObject(options) && !('pagination' in options) ? undefined : ((options as { pagination?: unknown }).pagination ?? {});
    }
    if (key) checkIdempotencyKey(key.value, key.field);
    // Authorised and bounded now, so a refusal never reaches the provider; a gated call's input too,
    // so no approval is asked for (or spent on) a call its input would stop.
    await this.deps.executor.check(this.scope, operationId, pagination, this.gates(operationId) ? (params ?? {}) : undefined);
    const approval = await this.gate(operationId, params, pagination, hooks);
    return this.dispatch(approval, hooks, () => this.physical({ operation: operationId, input: params as Record<string, unknown> | undefined, pagination }, key));
  }
}
