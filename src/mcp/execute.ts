// The `execute` tool: one approved call, or a TypeScript script chaining up to ten, in a fresh
// isolate. Each call() goes through src/calls and is authorised on its own at the moment it is
// made; `provider_execution` says `not_started` only when provably no provider request left the Engine.
import { tracedCall, type Calls, type DispatchHooks } from '../calls/index.ts';
import { bindActive, inSpan } from '../telemetry/index.ts';
import type { RecoveryContract } from '../envelope/index.ts';
import { EngineError } from '../envelope/index.ts';
import { metrics } from '../metrics/index.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../json-input/index.ts';
import { RESULT_UNAVAILABLE_GUIDANCE, ROW_TOO_LARGE_GUIDANCE, RetentionError, sessionGet, sessionPage, storedEnvelope, type SessionStateStore } from '../retention/index.ts';
import {
  AdmissionCancelled,
  BusyError,
  compileScript,
  ScriptSyntaxError,
  ScriptTooComplexError,
  type FairQueue,
  type SandboxHost,
  type SandboxWorkers,
  type ScriptFailure,
} from '../sandbox/index.ts';
import type { Tokens } from '../identity/index.ts';
import { CORRECT_ARGUMENTS, SESSION_UNAVAILABLE_RECOVERY, toolAnswer, MODEL_FACING_LIMIT, type ToolContext, type ToolResult } from './tools.ts';
import { approvalStop, askApproval, READ_ONLY_REASON, readOnlyFailure } from './safety.ts';

export const MAX_CALLS = 10;
export const DEFAULT_OUTPUT_BUDGET = 16_384;
/** Cap on each physical result and on the final value. */
export const RESULT_CAP_BYTES = 1024 * 1024;
const ERROR_TEXT_CAP = 8 * 1024;

/** Refusals raised before dispatch reject call() inside the script instead of returning an envelope. */
const REFUSED_BEFORE_DISPATCH = new Set(['ENGINE_INVALID_INPUT', 'ENGINE_PAGINATION_INVALID', 'ENGINE_FORBIDDEN_OPERATION', 'ENGINE_UNKNOWN_OPERATION']);

const DO_NOT_REPLAY: RecoveryContract = { execute_request: 'do_not_replay', provider_execution: 'unknown', automatic_replay: false };

/** The session ended under a run: reconnect; resend only when no call of it may have acted. */
const sessionGone = (acted: boolean): RecoveryContract => (acted ? { recovery_action: 'reinitialize_connection', ...DO_NOT_REPLAY } : SESSION_UNAVAILABLE_RECOVERY);
/** The sandbox failed under a script that had sent nothing: the same script may run again as it is. */
const UNCHANGED: RecoveryContract = { execute_request: 'unchanged', provider_execution: 'not_started', automatic_replay: false };
/** Not run for want of a place (MCP_BUSY): nothing started, so the same request may be sent again after the delay. */
const RETRY_LATER: RecoveryContract = { recovery_action: 'retry_after_delay', execute_request: 'unchanged', provider_execution: 'not_started', automatic_replay: true };

export interface ExecuteDeps {
  /** The one entry of every call (src/calls). */
  calls: Calls;
  sessionState: SessionStateStore;
  sandbox: SandboxWorkers;
  /** Places to run: a few per token at once, the rest waiting in turn (src/sandbox/fair-queue.ts). */
  queue: FairQueue;
  budgetMs: number;
  /** Each call() reads its token again: one revoked (on any replica) or expired while the script runs makes no further call. */
  tokens: Pick<Tokens, 'stillLive'>;
}

/** A refusal the host raised in this run: the script sees it, but the answer uses this copy, never the script's. */
interface Refused {
  code: string;
  message: string;
  details: Record<string, unknown> | undefined;
}

const REFUSALS_KEPT = 64;

interface RunState {
  /**
   * The latest refusals raised, by id (the script's EngineRefusal carries it). Bounded: a script
   * looping on refused session reads must not grow the host's memory; an older one rethrown is
   * answered as a plain script error.
   */
  refusals: Map<number, Refused>;
  nextRefusal: number;
  calls: number;
  /** A provider request may have left the Engine (answered, timed out, reset...). */
  dispatched: boolean;
  /** A provider outcome is unknown (timeout or reset after sending). */
  unknownOutcome: boolean;
  inFlight: number;
  /**
   * The script has finished (returned, thrown, timed out, been cancelled): a call() it left running
   * still on its way to dispatch (reading its token, resolving its operation) must not send after
   * the answer, which was decided without it (interface: "further calls blocked").
   */
  ended: boolean;
  /**
   * session.set writes the script started and did not wait for: the answer waits for them (up to
   * WRITES_WAIT_MS), so a script that returned has stored what it set; one still unfinished then (a
   * Redis not answering) may land after the answer.
   */
  writes: Set<Promise<unknown>>;
  /** A call waits for a person's approval (src/approvals): the run stops there, and answers it whatever the script did next. */
  approval?: Record<string, unknown> | undefined;
}

/** Longest the answer waits for session.set writes a finished script left running (a Redis that stopped answering). */
const WRITES_WAIT_MS = 2_000;

/** Waits for `writes` to settle (fulfilled or not), or `ms`, whichever comes first. */
async function settledWithin(writes: Iterable<Promise<unknown>>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([Promise.allSettled(writes), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms).unref()))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether a Unified envelope leaves a provider outcome unknown: a step cut mid-request or timed out
 * once sent, judged step by step (the envelope's own provider_execution is `unknown` as soon as any
 * step was sent, even one that completed); without steps, what the envelope says.
 */
function unifiedOutcomeUnknown(envelope: { data: unknown; error: { details?: Record<string, unknown> } | null }): boolean {
  const steps = (envelope.error?.details?.steps ?? (envelope.data as { steps?: unknown } | null)?.steps) as { dispatched?: boolean; error?: { code?: string } }[] | undefined;
  if (!Array.isArray(steps)) return envelope.error?.details?.provider_execution === 'unknown';
  // A step that timed out waiting for a provider connection sent nothing (dispatched: false).
  return steps.some((s) => s.dispatched !== false && (s.error?.code === 'ENGINE_OUTCOME_UNKNOWN' || s.error?.code === 'PROVIDER_TIMEOUT'));
}

const noop = () => undefined;

/** Host answers to the isolate: `{ value }`, or `{ refused }` for a coded Engine refusal. */
function refusal(err: unknown, state: RunState) {
  if (err instanceof Refusal || err instanceof EngineError || err instanceof RetentionError) {
    const refused: Refused = { code: err.code, message: err.message, details: err.details };
    const id = state.nextRefusal++;
    state.refusals.set(id, refused);
    if (state.refusals.size > REFUSALS_KEPT) state.refusals.delete(state.refusals.keys().next().value!);
    return { refused: { ...refused, id } };
  }
  throw err;
}
async function answer(work: () => Promise<unknown>, state: RunState) {
  try {
    return { value: (await work()) ?? null };
  } catch (err) {
    return refusal(err, state);
  }
}

/** Strings in an error's details longer than this are cut: the details explain, the whole answer stays within its cap. */
const DETAIL_STRING_CAP = 256;
function clipStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.length > DETAIL_STRING_CAP ? `${value.slice(0, DETAIL_STRING_CAP)}...` : value;
  if (Array.isArray(value)) return value.map(clipStrings);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [clipStrings(k) as string, clipStrings(v)]));
  return value;
}

/**
 * An error answer within `limit` bytes of JSON: long detail strings cut, then the details dropped,
 * then the message shortened to what is left beside the code and recovery contract.
 */
function bounded(answer: Record<string, unknown>, limit: number): Record<string, unknown> {
  const size = (a: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(a));
  if (size(answer) <= limit) return answer;
  const { code, message, recovery, ...extra } = answer;
  const clipped = { code, message, ...(clipStrings(extra) as Record<string, unknown>), recovery };
  if (size(clipped) <= limit) return clipped;
  const bare = { code, message: '', details_omitted: `the error's details exceed ${limit} bytes`, recovery };
  const text = String(message);
  let keep = Math.max(0, limit - size(bare) - 3);
  for (;;) {
    const shortened = { ...bare, message: `${text.slice(0, keep)}...` };
    const over = size(shortened) - limit;
    if (over <= 0 || keep === 0) return shortened;
    keep = Math.max(0, keep - over); // escapes and multi-byte characters take more than one byte each
  }
}

class Refusal extends Error {
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

const cap = (text: string, budget: number) => {
  const limit = Math.min(budget, ERROR_TEXT_CAP);
  return Buffer.byteLength(text) <= limit ? text : `${Buffer.from(text).subarray(0, limit - 3).toString('utf8').replace(/\uFFFD$/, '')}...`;
};

type ExecuteTool = (ctx: ToolContext, args: { code: string; outputBudgetBytes?: number }, signal: AbortSignal) => Promise<ToolResult>;

/** Counts every execute by outcome (GET /metrics): OK (inline result), MCP_RESULT_STORED, or the error code. */
function counted(execute: ExecuteTool): ExecuteTool {
  // In a span `execute` while tracing is on (src/telemetry): its calls and session reads nest under it.
  return (ctx, args, signal) =>
    inSpan('execute', { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'execute' }, async (span) => {
      let code = 'ENGINE_INTERNAL';
      try {
        const result = await execute(ctx, args, signal);
        const answered = (result.structuredContent as { code?: unknown } | undefined)?.code;
        code = typeof answered === 'string' ? answered : 'OK';
        return result;
      } finally {
        metrics.executeOutcome(code);
        span.set({ 'svc.execute.outcome': code, 'error.type': code === 'OK' || code === 'MCP_RESULT_STORED' ? undefined : code });
      }
    });
}

/** A tool refusal within the error-text limit of an execute whose output budget is `budget`. */
const failure =
  (budget: number) =>
  (code: string, message: string, contract: RecoveryContract, extra: Record<string, unknown> = {}): ToolResult =>
    toolAnswer(bounded({ code, message: cap(message, budget), ...extra, recovery: contract }, Math.min(budget, ERROR_TEXT_CAP)), true);

export function createExecuteTool(deps: ExecuteDeps): ExecuteTool {
  return counted(async function execute(ctx, args, signal) {
    // The budget counts from here: time spent waiting for a place is part of it.
    const started = Date.now();
    const fail = failure(args.outputBudgetBytes ?? DEFAULT_OUTPUT_BUDGET);
    // Compiling and running take a place of this token's: a token that sends many scripts at once
    // waits for its own places and never delays another's.
    let release;
    try {
      release = await deps.queue.acquire(ctx.token.id, signal);
    } catch (err) {
      if (err instanceof BusyError) {
        return fail('MCP_BUSY', `${err.message}; nothing ran. Retry in ${Math.ceil(err.retryAfterMs / 1000)} s, or wait for this token's executes in flight`, RETRY_LATER, {
          retryable: true,
          retry_after_ms: err.retryAfterMs,
        });
      }
      if (err instanceof AdmissionCancelled) return fail('MCP_EXECUTE_CANCELLED', 'execute was cancelled by the client before it ran', CORRECT_ARGUMENTS);
      throw err;
    }
    try {
      return await run(ctx, args, signal, started);
    } finally {
      release();
    }
  });

  /** Compiles and runs an admitted script, and answers its outcome. */
  async function run(ctx: ToolContext, args: { code: string; outputBudgetBytes?: number }, signal: AbortSignal, started: number): Promise<ToolResult> {
    const budget = args.outputBudgetBytes ?? DEFAULT_OUTPUT_BUDGET;
    const state: RunState = { refusals: new Map(), nextRefusal: 0, calls: 0, dispatched: false, unknownOutcome: false, inFlight: 0, ended: false, writes: new Set() };
    const abort = new AbortController();
    const recovery = (): RecoveryContract => (state.dispatched || state.inFlight > 0 ? DO_NOT_REPLAY : CORRECT_ARGUMENTS);
    const fail = failure(budget);
    let compiled;
    try {
      compiled = await compileScript(args.code);
    } catch (err) {
      const where = (e: { line: number | undefined; column: number | undefined }) => (e.line ? ` (line ${e.line}, column ${e.column})` : '');
      if (err instanceof ScriptTooComplexError) return fail('MCP_SCRIPT_TOO_COMPLEX', `${err.message}${where(err)}`, CORRECT_ARGUMENTS, { line: err.line });
      if (err instanceof ScriptSyntaxError) return fail('MCP_SCRIPT_SYNTAX_ERROR', `SyntaxError: ${err.message}${where(err)}`, CORRECT_ARGUMENTS, { line: err.line });
      throw err;
    }

    const { token } = ctx;
    // Retries and their waits end with the run's budget.
    const site = await deps.calls.open(token, ctx.version.versionId, 'mcp', { signal: abort.signal, deadline: started + deps.budgetMs });
    const hooks: DispatchHooks = {
      ask: ctx.elicit && ((approval) => askApproval(ctx.elicit!, approval, AbortSignal.any([abort.signal, signal]), started + deps.budgetMs - Date.now())),
      dispatching() {
        if (state.ended) throw new Refusal('MCP_EXECUTE_ENDED', 'call(): the script has finished; no further call is made');
        state.inFlight++;
      },
      settled() {
        state.inFlight--;
      },
    };

    // Bridges come back through the sandbox worker's messages: bound here, their spans nest under execute.
    const host: SandboxHost = {
      call: bindActive(async (operationId: unknown, params: unknown, options: unknown) => {
        try {
          if (state.approval) throw new Refusal('ENGINE_APPROVAL_REQUIRED', 'call(): this execute stopped for an approval; no further call is made');
          if (++state.calls > MAX_CALLS) throw new Refusal('MCP_CALL_LIMIT', `at most ${MAX_CALLS} call()s are allowed per execute`);
          if (typeof operationId !== 'string' || !operationId) throw new Refusal('ENGINE_INVALID_INPUT', 'call(): operationId must be a non-empty string', { field: 'operationId' });
          // A script runs for up to its budget: a revocation that returned meanwhile holds from its next call() on, as from a new request.
          if (!(await deps.tokens.stillLive(token))) throw new Refusal('ENGINE_UNAUTHENTICATED', 'call(): the token was revoked or expired while this script ran; no further call is made with it');
          let answer;
          try {
            answer = await tracedCall('mcp', operationId, params, () => site.script(operationId, params, options, hooks));
          } catch (err) {
            // A refusal that knows a provider may have acted (a Unified key left by a call that never finished).
            if (err instanceof EngineError && err.providerExecution === 'unknown') state.dispatched = state.unknownOutcome = true;
            if (err instanceof EngineError && err.code === 'ENGINE_APPROVAL_REQUIRED') state.approval = err.details?.approval as Record<string, unknown>;
            throw err;
          }
          if (answer.unified) {
            const unified = answer.result;
            if (unified.dispatched) state.dispatched = true;
            // A step that may or may not have acted makes the whole run's outcome unknown, as a physical call's does.
            if (unifiedOutcomeUnknown(unified.envelope)) state.unknownOutcome = true;
            return { value: unified.envelope };
          }
          const result = answer.result;
          const error = result.envelope.error;
          const execution = error?.details?.provider_execution;
          if (error && REFUSED_BEFORE_DISPATCH.has(error.code) && execution === 'not_started') {
            throw new Refusal(error.code, error.message, error.details);
          }
          if (result.providerAnswered || execution !== 'not_started') state.dispatched = true;
          if (execution === 'unknown') state.unknownOutcome = true;
          // A caller bound that stopped before the provider's last page: say so, as REST does.
          return { value: result.continuation ? { ...result.envelope, continuation: result.continuation } : result.envelope };
        } catch (err) {
          return refusal(err, state);
        }
      }),
      sessionGet: bindActive(([key]: unknown[]) => answer(() => sessionGet(deps.sessionState, ctx.session.id, key as string), state)),
      sessionSet: bindActive(([key, json]: unknown[]) => {
        const write = answer(async () => {
          if (state.ended) throw new Refusal('MCP_EXECUTE_ENDED', 'session.set: the script has finished; nothing is stored');
          if (typeof key !== 'string' || !key || key.length > 256 || key.startsWith('res_')) {
            throw new Refusal('ENGINE_INVALID_INPUT', 'session.set: the key must be a non-empty string of at most 256 characters not starting with res_');
          }
          // A session closed while the script ran keeps nothing: storing would bring its state back for good.
          if (!(await deps.sessionState.hasSession(ctx.session.id))) throw new Refusal('MCP_SESSION_UNAVAILABLE', 'session.set: the session was closed while the script ran');
          await deps.sessionState.setValue(ctx.session.id, key, (json as string | null) ?? 'null');
          return null;
        }, state);
        // Tracked settled either way: `write` rejects for a store failure (Redis gone), which the
        // sandbox answers; a second chain on it must not be left to reject unhandled.
        const settled = write.then(noop, noop);
        state.writes.add(settled);
        void settled.then(() => state.writes.delete(settled));
        return write;
      }),
      sessionPage: bindActive(([ref, options]: unknown[]) => answer(() => sessionPage(deps.sessionState, ctx.session.id, ref, options, budget), state)),
    };

    const outcome = await deps.sandbox.run({ code: compiled, tenant: token.id, host, budgetMs: deps.budgetMs - (Date.now() - started), resultCapBytes: RESULT_CAP_BYTES, signal });
    state.ended = true;
    if (state.inFlight > 0) abort.abort(); // outstanding provider calls end with the run (an abort builds a DOMException: only when needed)
    if (state.writes.size) await settledWithin(state.writes, WRITES_WAIT_MS);

    if (state.approval) return fail(...approvalStop(state.approval, state.dispatched || state.inFlight > 0));
    switch (outcome.kind) {
      case 'too-large':
        return fail('ENGINE_RESULT_TOO_LARGE', `the returned value is larger than ${RESULT_CAP_BYTES} bytes; return less (compute totals or aggregates inside the script)`, recovery());
      case 'returned': {
        const json = outcome.json ?? 'null';
        if (Buffer.byteLength(json) > RESULT_CAP_BYTES) {
          return fail('ENGINE_RESULT_TOO_LARGE', `the returned value is larger than ${RESULT_CAP_BYTES} bytes; return less (compute totals or aggregates inside the script)`, recovery());
        }
        // The host (and the MCP SDK) serialise the value again, recursively: a deep one would overflow the stack.
        if (nestsDeeperThan(json)) {
          return fail('MCP_SCRIPT_ERROR', `the returned value nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects; return a flatter value`, recovery());
        }
        const answer = `{"result":${json}}`;
        if (Buffer.byteLength(answer) <= Math.min(budget, MODEL_FACING_LIMIT)) {
          return { content: [{ type: 'text', text: answer }], structuredContent: JSON.parse(answer) };
        }
        if (!(await deps.sessionState.hasSession(ctx.session.id))) {
          // Its calls may have acted at a provider: resending the script could act twice.
          const acted = state.dispatched || state.inFlight > 0;
          return fail(
            'MCP_SESSION_UNAVAILABLE',
            `the session was closed while the script ran; its result was not stored${acted ? '; its provider calls may have acted — inspect current state before running it again' : ''}`,
            sessionGone(acted),
          );
        }
        try {
          const stored = await deps.sessionState.putSnapshot(ctx.session.id, json);
          return toolAnswer(storedEnvelope({ ref: stored.ref, expiresAt: stored.expiresAt, bytes: stored.bytes, outputBudgetBytes: budget, value: JSON.parse(json) }));
        } catch (err) {
          if (err instanceof RetentionError) return fail(err.code, err.message, recovery());
          throw err;
        }
      }
      case 'threw':
        return fail(...describeFailure(outcome.error, state, recovery()));
      case 'timeout':
        return fail('MCP_EXECUTE_TIMEOUT', `execute exceeded its ${Math.round(deps.budgetMs / 1000)}-second budget${state.dispatched || state.inFlight ? '; a timed-out mutation may have succeeded — inspect external state before repeating' : ''}`, recovery());
      case 'cancelled':
        return fail('MCP_EXECUTE_CANCELLED', 'execute was cancelled by the client; provider actions already accepted are not undone', recovery());
      case 'crashed':
        if (state.dispatched || state.inFlight) return fail('MCP_EXECUTION_OUTCOME_UNKNOWN', outcome.message, DO_NOT_REPLAY);
        return fail('MCP_SCRIPT_ERROR', outcome.message, outcome.lost ? UNCHANGED : CORRECT_ARGUMENTS);
    }
  }
}

function describeFailure(failure: ScriptFailure, state: RunState, contract: RecoveryContract): [string, string, RecoveryContract, Record<string, unknown>] {
  const where = failure.line ? ` (line ${failure.line}${failure.column ? `, column ${failure.column}` : ''})` : '';
  // Code, message and details of a refusal come from the host's record: a script can forge an EngineRefusal, not a record.
  const refused = failure.refusal !== undefined ? state.refusals.get(failure.refusal) : undefined;
  const error = refused ? { ...failure, ...refused } : { ...failure, code: undefined, details: undefined };
  if (error.code === 'MCP_RESULT_ROW_TOO_LARGE' && contract.provider_execution === 'not_started') {
    return [error.code, `${error.message}${where}`, { execute_request: 'adjust_projection', provider_execution: 'not_started', automatic_replay: false }, { ...(error.details ? { details: error.details } : {}), guidance: ROW_TOO_LARGE_GUIDANCE }];
  }
  if (error.code === 'MCP_SESSION_UNAVAILABLE') {
    return [error.code, `${error.message}${where}`, sessionGone(contract.provider_execution !== 'not_started'), {}];
  }
  if (error.code === 'MCP_RESULT_UNAVAILABLE') {
    return [error.code, `${error.message}${where}`, { ...contract, execute_request: 'do_not_replay' }, { guidance: RESULT_UNAVAILABLE_GUIDANCE }];
  }
  if (error.code && error.details?.reason === READ_ONLY_REASON) return readOnlyFailure(error.code, `${error.message}${where}`, contract, error.details);
  if (error.code) {
    const isolated = contract.provider_execution === 'not_started';
    return [error.code, `${error.message}${where}`, contract, { ...(error.details ? { details: error.details } : {}), ...(isolated ? {} : { note: 'an earlier or concurrent call may already have reached the provider' }) }];
  }
  if (state.unknownOutcome) {
    return ['MCP_EXECUTION_OUTCOME_UNKNOWN', `${error.name}: ${error.message}${where}; a provider outcome is unknown — reconnect, inspect current state, never replay automatically`, contract, { line: error.line }];
  }
  return ['MCP_SCRIPT_ERROR', `${error.name}: ${error.message}${where}`, contract, { ...(error.line ? { line: error.line } : {}) }];
}

