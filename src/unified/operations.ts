// Unified operations: one outcome over declared binding steps. The caller names the exact
// targets; every declared dependency must be among them. Steps run in dependency order,
// independent ones concurrently, each authorised on its own and dispatched through the same
// Executor as a physical call. The result says exactly which steps ran and what came back.
//
// What a version (and a token's allowlist) admits is the Unified operation; its steps are its
// implementation (docs/architecture.md, Unified operations: a target runs when its steps' services are selected). So a
// step needs its service pinned in the version, not its physical operation selected: it runs as
// that one operation, at the pinned service version, with the caller's credential routing, and is
// counted against the token's rate limit like any call. Nothing else is admitted by it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import jsonata from 'jsonata';
import { EngineError, failure, success, type Envelope } from '../envelope/index.ts';
import { addInputFormats } from '../catalog/index.ts';
import { checkIdempotencyKey, checkSelectors, IdempotencyKeys, keyScope, readOnlyRefusal, requestHash, type CallScope, type Executor } from '../execution/index.ts';
import type { Store } from '../store/index.ts';
import { inSpan } from '../telemetry/index.ts';
import { closureOf, type UnifiedDefinition } from './definitions.ts';
import type { StepReport, UnifiedParams, UnifiedResult } from './types.ts';

export const GENERATED_UNIFIED = resolve(import.meta.dirname, '../../generated/unified/index.json');
const PARAM_KEYS = new Set(['input', 'targets', 'selectors', 'pagination', 'idempotencyKey']);

/** Where a Unified call carries its idempotency key, unless a surface took it from elsewhere (a header, gRPC metadata). */
const KEY_FIELD = 'idempotencyKey';

const invalid = (field: string, message: string, code: 'ENGINE_INVALID_INPUT' | 'ENGINE_PAGINATION_INVALID' = 'ENGINE_INVALID_INPUT') =>
  new EngineError(code, message, { details: { field } });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The answer kept under an idempotency key: what the first call returned, REST status included. */
interface StoredAnswer {
  httpStatus: number;
  envelope: Envelope;
}

/** A kept answer; one kept by an earlier Engine (the bare envelope) gets the status that call had. */
function storedAnswer(text: string): StoredAnswer {
  const kept = JSON.parse(text) as Partial<StoredAnswer> & Partial<Envelope>;
  if (kept.envelope !== undefined && typeof kept.httpStatus === 'number') return { httpStatus: kept.httpStatus, envelope: kept.envelope };
  const envelope = kept as Envelope;
  const steps = (envelope.error?.details?.steps ?? []) as StepReport[];
  const answered = envelope.ok || steps.some((s) => s.status === 'succeeded' || (s.dispatched && s.error?.code === 'PROVIDER_ERROR'));
  return { httpStatus: answered ? 200 : envelope.status, envelope };
}

/** The service of a public operation ID (`github.issues/create` → `github`). */
const serviceOf = (operation: string) => operation.slice(0, operation.indexOf('.'));

/**
 * The scope one step runs in: the caller's (surface, token, pins, binding, signal), admitting that
 * step's own operation and nothing else. The Unified operation was admitted before any step ran.
 */
const stepScope = (scope: CallScope, operation: string): CallScope => ({ ...scope, admits: (id) => id === operation });

/** Drops undefined members left by JSONata mappings of optional input. */
const plain = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

export class UnifiedOperations {
  private readonly byName: Map<string, UnifiedDefinition>;
  private readonly executor: Executor;
  private readonly keys: IdempotencyKeys;
  private readonly ajv = new Ajv2020({ allErrors: true, strict: false });
  private readonly validators = new Map<string, { input: ValidateFunction; output: ValidateFunction }>();
  private readonly mappings = new Map<string, ReturnType<typeof jsonata>>();

  constructor(deps: { executor: Executor; store: Store; keys?: IdempotencyKeys; definitions?: UnifiedDefinition[] }) {
    this.executor = deps.executor;
    this.keys = deps.keys ?? new IdempotencyKeys(deps.store);
    addInputFormats(this.ajv);
    const definitions = deps.definitions ?? (JSON.parse(readFileSync(GENERATED_UNIFIED, 'utf8')) as UnifiedDefinition[]);
    this.byName = new Map(definitions.map((d) => [d.name, d]));
  }

  list(): UnifiedDefinition[] {
    return [...this.byName.values()];
  }

  get(name: string): UnifiedDefinition | undefined {
    return this.byName.get(name);
  }

  private schemas(def: UnifiedDefinition) {
    let v = this.validators.get(def.name);
    if (!v) {
      v = { input: this.ajv.compile(def.input as object), output: this.ajv.compile(def.output as object) };
      this.validators.set(def.name, v);
    }
    return v;
  }

  private mapping(expression: string) {
    let m = this.mappings.get(expression);
    if (!m) {
      m = jsonata(expression);
      this.mappings.set(expression, m);
    }
    return m;
  }

  /** Every check that must pass before anything is dispatched. */
  validate(scope: CallScope, name: string, raw: unknown, thirdArgument = false, keyField = KEY_FIELD): { def: UnifiedDefinition; params: UnifiedParams } {
    const def = this.byName.get(name);
    if (!def) throw new EngineError('ENGINE_UNKNOWN_OPERATION', `unknown Unified operation '${name}'`, { details: { field: 'operation' } });
    if (!scope.admits(name)) throw new EngineError('ENGINE_FORBIDDEN_OPERATION', `Unified operation '${name}' is not selected in this version`, { details: { field: 'operation' } });
    if (thirdArgument) {
      throw invalid('options', 'a Unified call takes no third argument: pass pagination keyed by target inside its params', 'ENGINE_PAGINATION_INVALID');
    }
    if (!isObject(raw)) throw invalid('params', 'a Unified call takes { input, targets, selectors?, pagination?, idempotencyKey? }');
    const extra = Object.keys(raw).filter((k) => !PARAM_KEYS.has(k));
    if (extra.length) throw invalid(extra[0]!, `unknown key '${extra[0]}' in a Unified call`);
    const steps = Object.keys(def.steps);
    const targets = raw.targets;
    if (!Array.isArray(targets) || targets.length === 0 || targets.some((t) => typeof t !== 'string')) {
      throw invalid('targets', `targets is required: a non-empty list of binding steps of ${name} (${steps.join(', ')}); it never defaults to all bindings`);
    }
    const unknownTarget = targets.find((t) => !steps.includes(t as string));
    if (unknownTarget !== undefined) throw invalid('targets', `unknown target '${unknownTarget}' of ${name}; its binding steps are: ${steps.join(', ')}`);
    if (new Set(targets).size !== targets.length) throw invalid('targets', 'targets lists a step twice');
    // A version selects the Unified operation for the targets whose services it pins (docs/architecture.md, Unified operations).
    const outside = (target: string) => [...closureOf(def, target)].map((step) => serviceOf(def.steps[step]!.operation)).find((service) => !scope.services.has(service));
    const unreachable = (targets as string[]).find((target) => outside(target) !== undefined);
    if (unreachable !== undefined) {
      const here = steps.filter((step) => outside(step) === undefined);
      throw invalid('targets', `target '${unreachable}' of ${name} calls service '${outside(unreachable)}', which this version does not select; its targets here: ${here.join(', ') || 'none'}`);
    }
    for (const target of targets as string[]) {
      const missing = [...closureOf(def, target)].filter((dep) => !targets.includes(dep));
      if (missing.length) {
        throw invalid('targets', `target '${target}' depends on ${missing.map((m) => `'${m}'`).join(', ')}; add ${missing.length > 1 ? 'them' : 'it'} to targets`);
      }
    }
    // A read-only token runs only targets whose every step reads (issue 31 §3).
    if (scope.readOnly) {
      const writes = (targets as string[]).find((target) => !this.executor.hints(scope, def.steps[target]!.operation)?.readOnly);
      if (writes !== undefined) throw readOnlyRefusal(name, `its target '${writes}' calls ${def.steps[writes]!.operation}`);
    }
    if (raw.selectors !== undefined) {
      if (!isObject(raw.selectors)) throw invalid('selectors', 'selectors must be an object keyed by target');
      for (const [target, sel] of Object.entries(raw.selectors)) {
        if (!targets.includes(target)) throw invalid(`selectors.${target}`, `selectors names '${target}', which is not among targets`);
        checkSelectors(sel, `selectors.${target}`);
      }
    }
    if (raw.pagination !== undefined) {
      if (!isObject(raw.pagination)) throw invalid('pagination', 'pagination must be an object keyed by target', 'ENGINE_PAGINATION_INVALID');
      for (const [target, bound] of Object.entries(raw.pagination)) {
        if (!targets.includes(target)) throw invalid(`pagination.${target}`, `pagination names '${target}', which is not among targets`, 'ENGINE_PAGINATION_INVALID');
        const op = def.steps[target]!.operation;
        try {
          this.executor.checkBound(scope, op, bound);
        } catch (err) {
          if (err instanceof EngineError && err.code === 'ENGINE_PAGINATION_INVALID') throw invalid(`pagination.${target}`, `pagination.${target}: ${err.message}`, 'ENGINE_PAGINATION_INVALID');
          throw err;
        }
      }
    }
    if (raw.idempotencyKey !== undefined) checkIdempotencyKey(raw.idempotencyKey, keyField);
    const { input: checkInput } = this.schemas(def);
    if (!checkInput(raw.input)) {
      const e = checkInput.errors![0]!;
      throw new EngineError('ENGINE_INVALID_INPUT', `input${e.instancePath} ${e.message}`, { details: { field: 'input', errors: checkInput.errors!.slice(0, 10).map((x) => ({ instancePath: x.instancePath, message: x.message })) } });
    }
    return { def, params: raw as unknown as UnifiedParams };
  }

  /** `keyField`: where the caller gave `params.idempotencyKey`, as refusals name it. */
  async call(scope: CallScope, name: string, raw: unknown, thirdArgument = false, keyField = KEY_FIELD): Promise<UnifiedResult> {
    let checked: ReturnType<UnifiedOperations['validate']>;
    try {
      checked = this.validate(scope, name, raw, thirdArgument, keyField);
    } catch (err) {
      // Refused before any step: a receipt, as a refused physical call gets one.
      if (err instanceof EngineError) this.executor.recordRefusal(scope, name, err);
      throw err;
    }
    const { def, params } = checked;
    const key = params.idempotencyKey;
    if (key === undefined) return this.run(scope, def, params);
    const hash = requestHash({ name, input: params.input, targets: [...params.targets].sort(), selectors: params.selectors ?? {}, pagination: params.pagination ?? {} });
    // A request refused by validate() above claimed nothing. A claim is held while the call runs
    // (a concurrent call with the key is refused as still running), then kept only when some step
    // may have reached a provider: a call where nothing ran anywhere keeps nothing, so the caller
    // may retry it with the same key (the usual practice, e.g. Stripe's).
    const once = await this.keys.once(
      { scope: keyScope(scope.versionId, scope.tokenId), key, requestHash: hash, field: keyField },
      () => this.run(scope, def, params, key),
      (result) => (result.dispatched ? JSON.stringify({ httpStatus: result.httpStatus, envelope: result.envelope } satisfies StoredAnswer) : null),
    );
    if (!once.replayed) return once.result;
    const stored = storedAnswer(once.kept);
    return { envelope: stored.envelope, httpStatus: stored.httpStatus, providerAnswered: false, dispatched: false, replayed: true };
  }

  /** `key`: the caller's idempotency key, from which each step derives the key a provider that honours keys gets. */
  private async run(scope: CallScope, def: UnifiedDefinition, params: UnifiedParams, key?: string): Promise<UnifiedResult> {
    const reports = new Map<string, StepReport>();
    const data = new Map<string, { ok: boolean; status: number; data: unknown }>();
    const running = new Map<string, Promise<StepReport>>();
    /** Per step refused by the rate limit, the wait it was told. */
    const waits = new Map<string, number>();
    const context = () => ({ input: params.input, steps: Object.fromEntries(data) });
    let providerAnswered = false;

    const runStep = (target: string): Promise<StepReport> => {
      let pending = running.get(target);
      if (pending) return pending;
      // Its dependencies run first, outside its span; the step itself is a span while tracing is on
      // (src/telemetry), its provider attempts nested under it.
      const step = def.steps[target]!;
      pending = Promise.all(step.dependsOn.map(runStep)).then((deps) => inSpan(`unified step ${target}`, { 'svc.unified.operation': def.name, 'svc.unified.target': target, 'svc.operation': step.operation }, async (): Promise<StepReport> => {
        const base = { target, operation: step.operation };
        const blocked = deps.find((d) => d.status !== 'succeeded');
        if (blocked) {
          return { ...base, status: 'skipped', httpStatus: null, providerDurationMs: 0, dispatched: false, error: { code: 'UNIFIED_STEP_SKIPPED', message: `not run: step '${blocked.target}' did not succeed` } };
        }
        // A version may leave out the services of some targets (publishing needs one target it can
        // run): a step on a service it does not pin is refused here, never run at another version.
        const service = serviceOf(step.operation);
        if (!scope.services.has(service)) {
          return {
            ...base,
            status: 'refused',
            httpStatus: 403,
            providerDurationMs: 0,
            dispatched: false,
            error: { code: 'ENGINE_FORBIDDEN_OPERATION', message: `step '${target}' calls ${step.operation}, but service '${service}' is not selected in this version` },
          };
        }
        // The caller went away while an earlier step ran: nothing would read this step's answer.
        if (scope.signal?.aborted || scope.connection?.destroyed) {
          return { ...base, status: 'skipped', httpStatus: null, providerDurationMs: 0, dispatched: false, error: { code: 'UNIFIED_STEP_SKIPPED', message: 'not run: the caller went away before it started' } };
        }
        let input: unknown;
        try {
          input = plain(await this.mapping(step.input).evaluate(context()));
        } catch (err) {
          return { ...base, status: 'failed', httpStatus: 500, providerDurationMs: 0, dispatched: false, error: { code: 'UNIFIED_MAPPING_FAILED', message: `the input mapping failed: ${(err as Error).message}` } };
        }
        const result = await this.executor.call(stepScope(scope, step.operation), {
          operation: step.operation,
          input: (input ?? {}) as Record<string, unknown>,
          pagination: params.pagination?.[target],
          selectors: params.selectors?.[target],
          idempotency: key === undefined ? undefined : { key, part: target },
        });
        const env = result.envelope;
        const execution = env.error?.details?.provider_execution;
        const dispatched = result.providerAnswered || (env.error !== null && execution !== 'not_started');
        providerAnswered ||= result.providerAnswered;
        if (env.ok) data.set(target, { ok: true, status: env.status, data: env.data });
        const wait = env.error?.code === 'ENGINE_RATE_LIMITED' ? Number(env.error.details?.retry_after_ms) : NaN;
        if (Number.isFinite(wait)) waits.set(target, wait);
        return {
          ...base,
          status: env.ok ? 'succeeded' : dispatched ? 'failed' : 'refused',
          httpStatus: env.status,
          providerDurationMs: result.providerDurationMs,
          dispatched,
          ...(env.error ? { error: { code: env.error.code, message: env.error.message } } : {}),
          ...(result.continuation ? { continuation: result.continuation } : {}),
        };
      }, { outcome: (report) => ({ 'svc.unified.step_status': report.status, 'svc.status': report.httpStatus ?? undefined, 'error.type': report.error?.code }) }));
      running.set(target, pending);
      return pending;
    };

    for (const report of await Promise.all(params.targets.map(runStep))) reports.set(report.target, report);
    const steps = params.targets.map((t) => reports.get(t)!);
    const dispatched = steps.some((s) => s.dispatched);
    let output: unknown = null;
    let outputError: string | undefined;
    try {
      output = plain(await this.mapping(def.mapOutput).evaluate(context())) ?? null;
      if (!this.schemas(def).output(output)) {
        const e = this.schemas(def).output.errors![0]!;
        outputError = `the mapped output does not match the output schema: output${e.instancePath} ${e.message}`;
      }
    } catch (err) {
      outputError = `the output mapping failed: ${(err as Error).message}`;
    }
    // The step that failed, not one skipped because of it, and the first in the definition's order:
    // the same answer whatever order `targets` lists them in.
    const inOrder = Object.keys(def.steps).flatMap((t) => (reports.has(t) ? [reports.get(t)!] : []));
    const failed = inOrder.find((s) => s.status !== 'succeeded' && s.status !== 'skipped') ?? inOrder.find((s) => s.status !== 'succeeded');
    const ran = inOrder.filter((s) => s.dispatched).map((s) => s.target);
    if (!failed && !outputError) return { envelope: success(200, { output, steps }), httpStatus: 200, providerAnswered, dispatched, replayed: false };
    const envelope = failure(
      failed?.httpStatus ?? 500,
      {
        code: failed ? 'UNIFIED_STEP_FAILED' : 'UNIFIED_OUTPUT_INVALID',
        message: failed
          ? `step '${failed.target}' (${failed.operation}) ${failed.status}: ${failed.error?.message ?? 'no detail'}; steps that reached a provider: ${ran.length ? ran.join(', ') : 'none'}`
          : outputError!,
        retryable: false,
        details: { steps, provider_execution: dispatched ? 'unknown' : 'not_started' },
      },
      { output: failed ? output : null, steps },
    );
    const retryAfterMs = failed ? waits.get(failed.target) : undefined;
    return { envelope, httpStatus: providerAnswered ? 200 : envelope.status, providerAnswered, dispatched, replayed: false, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }
}
