// `svc-cli sdk invoke <sdk>@<version>|<ver_…> <operation> --params '<json>'`: one REST execution
// with the SDK execution token from SVC_EXECUTION_TOKEN. Prints the envelope; exit 1 when ok is false.
// A version ID needs no login: the execution token is all a caller of the app holds.
import { defineCommand } from '../../lib/command.ts';
import { engineUrl, isSendableToken } from '../../lib/credentials.ts';
import { engineAdvice, engineClient, notTheEngine, session, transportError } from '../../lib/engine.ts';
import { CliError, UsageError, errorLine, withoutCredentials } from '../../lib/errors.ts';
import { printJson } from '../../lib/output.ts';
import { isVersionId, resolveSdkRef } from './versions.ts';

/** What the hints know of the version called: its operations when it was named `<sdk>@<version>`. */
type InvokedVersion = { label: string; operations?: string[] };

/** `demo-crm=contacts/list` and `demo-crm.contacts/list` both name the public operation ID. */
export const publicOperationId = (op: string) => (/^[a-z][a-z0-9-]*=/.test(op) ? op.replace('=', '.') : op);

const INTEGER = /^-?\d+$/;

/** Whether a double read from JSON number text differs from it: an integer past ±2^53, or out of range (1e400). */
const changedByDouble = (value: number, source: string) => !Number.isFinite(value) || (INTEGER.test(source) && BigInt(source) !== BigInt(value));

/** A flag's JSON object (`example` shows one in the hints). */
function parseObject(flag: string, text: string, example: string): Record<string, unknown> {
  let value: unknown;
  let inexact: string | undefined;
  try {
    // The reviver sees each number's text: a number a double would change is never sent rounded.
    value = JSON.parse(text, (_key, v: unknown, context?: { source?: string }) => {
      if (typeof v === 'number' && context?.source !== undefined && inexact === undefined && changedByDouble(v, context.source)) inexact = context.source;
      return v;
    });
  } catch (err) {
    throw new UsageError(`${flag} is not valid JSON (${(err as Error).message})`, `pass a JSON object, e.g. ${flag} '${example}'`);
  }
  if (inexact !== undefined) {
    const shown = inexact.length > 40 ? `${inexact.slice(0, 40)}…` : inexact;
    const why = INTEGER.test(inexact) ? 'an integer beyond ±2^53' : 'out of range';
    throw new UsageError(`${flag} holds the number ${shown}, which cannot be sent exactly (${why})`, `send it as a string, e.g. "${shown}"`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${flag} must be a JSON object`, `e.g. ${flag} '${example}'`);
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
function operationsOf(ref: InvokedVersion): string {
  if (!ref.operations) return `${ref.label} selects (\`svc-cli sdk list --json\` lists each version's operations)`;
  const shown = ref.operations.slice(0, 5).join(', ');
  const more = ref.operations.length > 5 ? `, … (${ref.operations.length} in all; \`svc-cli sdk list --json\` lists them)` : '';
  return `${ref.label} has ${shown || 'no operations'}${more}`;
}

/** The flag that set a request field the Engine refused (`selectors.crm.endUserRef`, `/targets/0`), if one did. */
function flagOf(field: string | undefined): string | undefined {
  const top = field?.replace(/^\//, '').split(/[./]/)[0];
  const flags: Record<string, string> = { selectors: '--selectors', targets: '--targets', idempotencyKey: '--idempotency-key' };
  return top ? flags[top] : undefined;
}

function hintFor(error: Envelope['error'], ref: InvokedVersion, maxPages: number | undefined): string {
  const details = error?.details ?? {};
  const field = typeof details.field === 'string' ? details.field : (details.errors as { instancePath?: string }[] | undefined)?.[0]?.instancePath;
  const flag = flagOf(field);
  if (flag && error?.code === 'ENGINE_INVALID_INPUT') return `fix ${flag} (the message names the field)`;
  switch (error?.code) {
    case 'ENGINE_UNAUTHENTICATED':
      return `SVC_EXECUTION_TOKEN must hold an execution token of ${ref.label} (printed by the first \`svc-cli sdk apply\`, or by \`svc-cli sdk token create\`)`;
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
      return 'fix --pagination or --max-pages (the message names the field)';
    case 'ENGINE_PAGINATION_LIMIT':
      return 'pass --max-pages to stop earlier (where the operation takes a bound), or narrow the query in --params';
    case 'ENGINE_CREDENTIAL_MISSING':
      return "store the provider's secret with `svc-cli secret set <service> --value-stdin`";
    case 'ENGINE_CREDENTIAL_REFRESH_FAILED':
      return 'reconnect the end user with `svc-cli connection create`';
    case 'ENGINE_EGRESS_REFUSED':
      return "the service's base URL resolves to an address the Engine refuses to call; point it elsewhere, or (a private range) have the operator list it in SVC_EGRESS_ALLOW";
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
      .positional('ref', { type: 'string', demandOption: true, describe: '<sdk_name>@<version> (e.g. crm@1.0.0; needs `svc-cli login`) or the version ID ver_… (needs only the token)' })
      .positional('operation', { type: 'string', demandOption: true, describe: 'operation, e.g. demo-crm.contacts/list (or demo-crm=contacts/list)' })
      .option('params', { type: 'string', default: '{}', requiresArg: true, describe: "the operation's input as a JSON object (request body under \"body\")" })
      .option('max-pages', { type: 'number', requiresArg: true, describe: 'caller bound on pagination (operations whose policy allows it)' })
      .option('pagination', { type: 'string', requiresArg: true, conflicts: 'max-pages', describe: 'the pagination bound as JSON; Unified operations key it by target, e.g. \'{"crm": {"maxPages": 2}}\'' })
      .option('selectors', { type: 'string', requiresArg: true, describe: 'non-secret routing as JSON, e.g. \'{"endUserRef": "u_42"}\'; Unified operations key it by target' })
      .option('targets', { type: 'string', array: true, requiresArg: true, describe: 'Unified operations: the binding steps to run (required for them), e.g. --targets github crm' })
      .option('idempotency-key', { type: 'string', requiresArg: true, describe: 'the same key and request within 24 h returns the first answer, without calling the provider again' })
      .option('json', { type: 'boolean', describe: 'accepted for symmetry: the output is always the JSON envelope' })
      .example(`$0 sdk invoke crm@1.0.0 demo-crm.contacts/list --params '{"limit": 10}'`, 'list contacts')
      .example(`$0 sdk invoke crm@1.0.0 demo-crm.contacts/create --params '{"body": {"name": "Ada", "email": "ada@example.test"}}'`, 'create a contact')
      .example(`$0 sdk invoke ver_01J… demo-crm.account/get --selectors '{"endUserRef": "u_42"}'`, "as an end user's connection, by version ID (no login)")
      .example(`$0 sdk invoke crm@1.0.0 unified.tasks.create --targets github crm --idempotency-key follow-up-42 --params '{"title": "Follow up"}'`, 'a Unified operation'),
  handler: async (argv) => {
    const input = parseObject('--params', argv.params, '{"limit": 10}');
    if (argv.maxPages !== undefined && (!Number.isInteger(argv.maxPages) || argv.maxPages < 1)) {
      throw new UsageError('--max-pages must be a positive integer', 'e.g. --max-pages 2');
    }
    const pagination = argv.pagination !== undefined ? parseObject('--pagination', argv.pagination, '{"maxPages": 2}') : argv.maxPages !== undefined ? { maxPages: argv.maxPages } : undefined;
    const selectors = argv.selectors !== undefined ? parseObject('--selectors', argv.selectors, '{"endUserRef": "u_42"}') : undefined;
    const targets = argv.targets?.map(String);
    if (targets?.some((t) => !t.trim())) throw new UsageError('--targets holds an empty name', 'name each binding step, e.g. --targets github crm');
    if (argv.idempotencyKey !== undefined && !argv.idempotencyKey.trim()) throw new UsageError('--idempotency-key is empty', 'give a key, e.g. --idempotency-key follow-up-42, or leave it out');
    const token = process.env.SVC_EXECUTION_TOKEN?.trim();
    if (!token) throw new CliError('SVC_EXECUTION_TOKEN is not set', 'export the execution token printed by the first `svc-cli sdk apply`');
    if (!isSendableToken(token)) throw new CliError('SVC_EXECUTION_TOKEN is malformed (it holds a control character, space or non-ASCII character)', 'export the execution token printed by the first `svc-cli sdk apply`');
    let url: string;
    let versionId: string;
    let ref: InvokedVersion;
    if (isVersionId(argv.ref)) {
      url = engineUrl();
      versionId = argv.ref;
      ref = { label: argv.ref };
    } else {
      const s = session();
      const found = await resolveSdkRef(s, argv.ref);
      url = s.url;
      versionId = found.versionId;
      ref = { label: `${found.name}@${found.version}`, operations: found.operations };
    }
    const operation = publicOperationId(argv.operation);
    const body = {
      operation,
      input,
      ...(pagination ? { pagination } : {}),
      ...(selectors ? { selectors } : {}),
      ...(targets ? { targets } : {}),
      ...(argv.idempotencyKey !== undefined ? { idempotencyKey: argv.idempotencyKey } : {}),
    };
    let answer;
    try {
      answer = await engineClient(url, token).POST('/v1/apps/{version_id}/executions', { params: { path: { version_id: versionId } }, body });
    } catch (err) {
      throw transportError(url, err);
    }
    const envelope: unknown = answer.data ?? answer.error;
    if (!isEnvelope(envelope)) throw notTheEngine(url, answer.response, envelope);
    // The Engine never puts a credential in an envelope (docs/architecture.md, the result envelope); a server that does (one
    // echoing the token it was sent) does not get it printed.
    printJson(JSON.parse(withoutCredentials(JSON.stringify(envelope))));
    if (!envelope.ok) {
      // The Engine's own advice (`…; run \`svc-cli secret set demo-crm …\``) is the hint when it gives one.
      const advice = envelope.error ? engineAdvice(envelope.error.message) : undefined;
      const what = envelope.error ? `${envelope.error.code}: ${advice?.what ?? envelope.error.message}` : `status ${envelope.status}`;
      process.stderr.write(errorLine(`${operation} failed (${what})`, advice?.advice ?? hintFor(envelope.error, ref, argv.maxPages)) + '\n');
      process.exitCode = 1;
    }
  },
});
