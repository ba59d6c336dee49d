// `svc-cli sdk invoke <sdk>@<version> <operation> --params '<json>'`: one REST execution with the
// SDK execution token from SVC_EXECUTION_TOKEN. Prints the envelope; exit 1 when ok is false.
import { defineCommand } from '../../lib/command.ts';
import { isSendableToken } from '../../lib/credentials.ts';
import { engineAdvice, engineClient, notTheEngine, session, transportError } from '../../lib/engine.ts';
import { CliError, UsageError, errorLine } from '../../lib/errors.ts';
import { printJson } from '../../lib/output.ts';
import { resolveSdkRef, type SdkRef } from './versions.ts';

/** `demo-crm=contacts/list` and `demo-crm.contacts/list` both name the public operation ID. */
export const publicOperationId = (op: string) => (/^[a-z][a-z0-9-]*=/.test(op) ? op.replace('=', '.') : op);

const INTEGER = /^-?\d+$/;

/** Whether a double read from JSON number text differs from it: an integer past ±2^53, or out of range (1e400). */
const changedByDouble = (value: number, source: string) => !Number.isFinite(value) || (INTEGER.test(source) && BigInt(source) !== BigInt(value));

function parseParams(text: string): Record<string, unknown> {
  let value: unknown;
  let inexact: string | undefined;
  try {
    // The reviver sees each number's text: a number a double would change is never sent rounded.
    value = JSON.parse(text, (_key, v: unknown, context?: { source?: string }) => {
      if (typeof v === 'number' && context?.source !== undefined && inexact === undefined && changedByDouble(v, context.source)) inexact = context.source;
      return v;
    });
  } catch (err) {
    throw new UsageError(`--params is not valid JSON (${(err as Error).message})`, `pass a JSON object, e.g. --params '{"limit": 10}'`);
  }
  if (inexact !== undefined) {
    const shown = inexact.length > 40 ? `${inexact.slice(0, 40)}…` : inexact;
    const why = INTEGER.test(inexact) ? 'an integer beyond ±2^53' : 'out of range';
    throw new UsageError(`--params holds the number ${shown}, which cannot be sent exactly (${why})`, `send it as a string, e.g. "${shown}"`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError('--params must be a JSON object', `pass the operation's input by name, e.g. --params '{"limit": 10}'`);
  }
  return value as Record<string, unknown>;
}

interface Envelope {
  ok: boolean;
  status: number;
  data: unknown;
  error: { code: string; message: string; details?: Record<string, unknown> } | null;
}
const isEnvelope = (v: unknown): v is Envelope => typeof v === 'object' && v !== null && 'ok' in v && 'status' in v && 'error' in v;

/** The version's operations, for a hint: the first few, and where to see them all. */
function operationsOf(ref: SdkRef): string {
  const shown = ref.operations.slice(0, 5).join(', ');
  const more = ref.operations.length > 5 ? `, … (${ref.operations.length} in all; \`svc-cli sdk list --json\` lists them)` : '';
  return `${ref.name}@${ref.version} has ${shown || 'no operations'}${more}`;
}

function hintFor(error: Envelope['error'], ref: SdkRef, maxPages: number | undefined): string {
  const details = error?.details ?? {};
  const field = typeof details.field === 'string' ? details.field : (details.errors as { instancePath?: string }[] | undefined)?.[0]?.instancePath;
  switch (error?.code) {
    case 'ENGINE_UNAUTHENTICATED':
      return `SVC_EXECUTION_TOKEN must hold the token printed by the first \`svc-cli sdk apply\` of ${ref.name}`;
    case 'ENGINE_FORBIDDEN_OPERATION':
    case 'ENGINE_UNKNOWN_OPERATION':
      return `call an operation selected in that version: ${operationsOf(ref)}`;
    case 'ENGINE_INVALID_INPUT':
      if (field === 'operation' || field === '/operation') return `name an operation: ${operationsOf(ref)}`;
      return 'fix --params (the message names the field)';
    case 'ENGINE_PAGINATION_INVALID':
      if (field === 'pagination.maxPages' || field === '/pagination/maxPages' || (field === undefined && maxPages !== undefined)) {
        if (details.caller_bound_supported === false) return 'leave out --max-pages: this operation takes no page bound';
        if (typeof details.engine_max_pages === 'number') return `pass a --max-pages below ${details.engine_max_pages}, or leave it out`;
        return maxPages === undefined ? 'pass --max-pages (e.g. --max-pages 2)' : 'fix --max-pages, or leave it out';
      }
      return 'fix the pagination in --params (the message names the field)';
    case 'ENGINE_PAGINATION_LIMIT':
      return 'pass --max-pages to stop earlier (where the operation takes a bound), or narrow the query in --params';
    case 'ENGINE_CREDENTIAL_MISSING':
      return "store the provider's secret with `svc-cli secret set <service> --value-stdin`";
    case 'ENGINE_CREDENTIAL_REFRESH_FAILED':
      return 'reconnect the end user with `svc-cli connection create`';
    case 'PROVIDER_UNREACHABLE':
    case 'PROVIDER_TIMEOUT':
      return "check the service's base URL (`svc-cli workspace plan`) and that the provider is up";
    case 'ENGINE_OUTCOME_UNKNOWN':
      return 'check the provider for the outcome before calling again';
    case 'PROVIDER_ERROR':
      return "the provider's answer is in error.details.providerBody of the envelope above";
    case 'UNIFIED_STEP_FAILED':
      return 'data.steps of the envelope above tells what each step did';
    default:
      return 'the envelope above has the details';
  }
}

export const sdkInvoke = defineCommand({
  command: 'invoke <ref> <operation>',
  describe: 'Call an operation of a published SDK version (token from SVC_EXECUTION_TOKEN)',
  builder: (y) =>
    y
      .positional('ref', { type: 'string', demandOption: true, describe: '<sdk_name>@<version>, e.g. crm@1.0.0' })
      .positional('operation', { type: 'string', demandOption: true, describe: 'operation, e.g. demo-crm.contacts/list (or demo-crm=contacts/list)' })
      .option('params', { type: 'string', default: '{}', requiresArg: true, describe: "the operation's input as a JSON object (request body under \"body\")" })
      .option('max-pages', { type: 'number', requiresArg: true, describe: 'caller bound on pagination (operations whose policy allows it)' })
      .option('json', { type: 'boolean', describe: 'accepted for symmetry: the output is always the JSON envelope' })
      .example(`$0 sdk invoke crm@1.0.0 demo-crm.contacts/list --params '{"limit": 10}'`, 'list contacts')
      .example(`$0 sdk invoke crm@1.0.0 demo-crm.contacts/create --params '{"body": {"name": "Ada", "email": "ada@example.test"}}'`, 'create a contact'),
  handler: async (argv) => {
    if (!argv.operation.trim()) throw new UsageError('the operation is empty', 'name one, e.g. demo-crm.contacts/list (`svc-cli sdk list --json` lists each version\'s operations)');
    const input = parseParams(argv.params);
    if (argv.maxPages !== undefined && (!Number.isInteger(argv.maxPages) || argv.maxPages < 1)) {
      throw new UsageError('--max-pages must be a positive integer', 'e.g. --max-pages 2');
    }
    const token = process.env.SVC_EXECUTION_TOKEN?.trim();
    if (!token) throw new CliError('SVC_EXECUTION_TOKEN is not set', 'export the execution token printed by the first `svc-cli sdk apply`');
    if (!isSendableToken(token)) throw new CliError('SVC_EXECUTION_TOKEN is malformed (it holds a control character, space or non-ASCII character)', 'export the execution token printed by the first `svc-cli sdk apply`');
    const s = session();
    const ref = await resolveSdkRef(s, argv.ref);
    const operation = publicOperationId(argv.operation);
    let answer;
    try {
      answer = await engineClient(s.url, token).POST('/v1/apps/{version_id}/executions', {
        params: { path: { version_id: ref.versionId } },
        body: { operation, input, ...(argv.maxPages !== undefined ? { pagination: { maxPages: argv.maxPages } } : {}) },
      });
    } catch (err) {
      throw transportError(s.url, err);
    }
    const envelope: unknown = answer.data ?? answer.error;
    if (!isEnvelope(envelope)) throw notTheEngine(s.url, answer.response, envelope);
    printJson(envelope);
    if (!envelope.ok) {
      // The Engine's own advice (`…; run \`svc-cli secret set demo-crm …\``) is the hint when it gives one.
      const advice = envelope.error ? engineAdvice(envelope.error.message) : undefined;
      const what = envelope.error ? `${envelope.error.code}: ${advice?.what ?? envelope.error.message}` : `status ${envelope.status}`;
      process.stderr.write(errorLine(`${operation} failed (${what})`, advice?.advice ?? hintFor(envelope.error, ref, argv.maxPages)) + '\n');
      process.exitCode = 1;
    }
  },
});
