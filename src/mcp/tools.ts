// The two MCP tools. Their schemas are kept small on purpose: tools/list is read by every agent
// on every connection.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { CallToolResult, ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { DocsError, type DocsIndex } from '../docs/index.ts';
import type { RecoveryContract } from '../envelope/index.ts';
import type { AppVersionRow, TokenRow } from '../store/index.ts';
import { allows } from '../calls/index.ts';
import type { McpSession } from './types.ts';

export type ToolResult = CallToolResult;

/**
 * Asks the MCP client's user (elicitation/create) and resolves with the answer, within `ms` (the
 * run's budget left) unless `signal` ends it first. `approvalId` names the approval asked for, so
 * the replica whose stream asks can record an accepted one itself (./elicitation.ts).
 */
export type Elicit = (params: ElicitRequestFormParams, within: { signal: AbortSignal; ms: number; approvalId?: string }) => Promise<ElicitResult>;

/** Model-facing JSON is capped at 64 KiB (docs/architecture.md, "The execute tool"). */
export const MODEL_FACING_LIMIT = 64 * 1024;

export const toolDefinitions = [
  {
    name: 'search_docs',
    description:
      'Find operations this server can call. `query`: the outcome in a few words (3 results, `limit` up to 5). No query: browse (optional `service`). `operationId` (+ `section`, `schemaPath`): exact detail. Never guess an operation ID.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        query: { type: 'string', maxLength: 500 },
        limit: { type: 'integer', minimum: 1, maximum: 5 },
        operationId: { type: 'string', maxLength: 300 },
        section: { type: 'string', maxLength: 100 },
        schemaPath: { type: 'string', maxLength: 1000 },
        service: { type: 'string', maxLength: 64 },
      },
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'execute',
    description:
      'Run TypeScript (the body of an async function; `return` the result) that calls operations with call(operationId, params). Up to 10 calls, 30 s. Results over `outputBudgetBytes` (1024-65536, default 16384) come back as a stored snapshot to read with session.page.',
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['code'],
      properties: {
        code: { type: 'string', minLength: 1, maxLength: 100000 },
        outputBudgetBytes: { type: 'integer', minimum: 1024, maximum: 65536 },
      },
    },
    annotations: { openWorldHint: true },
  },
];

// Compiled on the first tool call, not at start (an Ajv instance costs tens of milliseconds).
let compiled: Record<string, ValidateFunction> | undefined;
const validators = (): Record<string, ValidateFunction> => {
  if (!compiled) {
    const ajv = new Ajv2020({ allErrors: false, strict: false });
    compiled = Object.fromEntries(toolDefinitions.map((t) => [t.name, ajv.compile(t.inputSchema)]));
  }
  return compiled;
};

export class ToolCallError extends Error {
  override name = 'ToolCallError';
  readonly code: string;
  readonly recovery: RecoveryContract | undefined;
  readonly extra: Record<string, unknown>;
  constructor(code: string, message: string, recovery?: RecoveryContract, extra: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.recovery = recovery;
    this.extra = extra;
  }
}

export interface ToolContext {
  session: McpSession;
  version: AppVersionRow;
  /** The token that made this request, as verified by the gateway. */
  token: TokenRow;
  docs: () => DocsIndex | Promise<DocsIndex>;
  /** Sends an elicitation/create to the MCP client, when it declared the capability and a stream is open to it. */
  elicit?: Elicit | undefined;
  /** Runs `execute`; absent until the sandbox is wired in. */
  execute?: (ctx: ToolContext, args: { code: string; outputBudgetBytes?: number }, signal: AbortSignal) => Promise<ToolResult>;
}

export const CORRECT_ARGUMENTS: RecoveryContract = { execute_request: 'correct_arguments', provider_execution: 'not_started', automatic_replay: false };

export const SESSION_UNAVAILABLE_RECOVERY: RecoveryContract = {
  recovery_action: 'reinitialize_connection',
  execute_request: 'reformat_if_session_state_used',
  provider_execution: 'not_started',
  automatic_replay: false,
};

/** A tool answer: the JSON object as structuredContent and the same JSON as one text item. */
export function toolAnswer(value: Record<string, unknown>, isError = false): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value, ...(isError ? { isError: true } : {}) };
}

/**
 * A refusal before any work: an unknown tool, arguments the tool's schema refuses, a search_docs
 * lookup that finds nothing. Every tool refusal carries a recovery contract, here
 * `correct_arguments` with `provider_execution: not_started` (docs/reference/envelope.md, "MCP
 * tools"): without one, an agent could not tell that nothing ran.
 */
function refusal(err: ToolCallError): ToolResult {
  return toolAnswer({ code: err.code, message: err.message, ...err.extra, recovery: err.recovery ?? CORRECT_ARGUMENTS }, true);
}

/**
 * A tool name or argument key the caller sent, quoted in a refusal: its start only, so the answer
 * keeps to the error-text limit, min(output budget, 8 KiB) (docs/architecture.md, "The execute tool").
 */
const quoted = (text: string) => (text.length > 100 ? `${text.slice(0, 100).replace(/[\ud800-\udbff]$/, '')}…` : text);

/** What the token may call: its allowlist, and for a read-only token only read-only operations. */
const callable = (ctx: ToolContext, docs: DocsIndex) => (operationId: string) => allows(ctx.token.allow, operationId) && (!ctx.token.readOnly || docs.readOnly(operationId));

export async function runTool(ctx: ToolContext, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
  const all = validators();
  // Own names only: `constructor` or `toString` would find Object.prototype's functions.
  const validate = Object.hasOwn(all, name) ? all[name] : undefined;
  if (!validate) return refusal(new ToolCallError('ENGINE_UNKNOWN_TOOL', `unknown tool '${quoted(name)}'; this server has search_docs and execute`));
  if (!validate(args)) {
    const e = validate.errors![0]!;
    const where = e.keyword === 'additionalProperties' ? `/${quoted(String(e.params.additionalProperty))}` : e.instancePath || '/';
    const message = e.keyword === 'additionalProperties' ? 'is not an argument of this tool' : (e.message ?? 'is invalid');
    return refusal(new ToolCallError('ENGINE_INVALID_INPUT', `arguments${where} ${message}`));
  }
  try {
    if (name === 'search_docs') {
      const docs = await ctx.docs();
      return toolAnswer(docs.run(args, callable(ctx, docs)));
    }
    if (!ctx.execute) {
      return refusal(new ToolCallError('MCP_EXECUTE_UNAVAILABLE', 'execute is not available yet on this Engine', { execute_request: 'unchanged', provider_execution: 'not_started', automatic_replay: false }));
    }
    return await ctx.execute(ctx, args as { code: string; outputBudgetBytes?: number }, signal);
  } catch (err) {
    if (err instanceof ToolCallError) return refusal(err);
    if (err instanceof DocsError) return refusal(new ToolCallError(err.code, err.message));
    throw err;
  }
}
