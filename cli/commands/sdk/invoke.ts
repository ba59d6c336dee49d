// `svc-cli sdk invoke <sdk>@<version> <operation> --params '<json>'`: one REST execution with the
// SDK execution token from SVC_EXECUTION_TOKEN. Prints the envelope; exit 1 when ok is false.
import { defineCommand } from '../../lib/command.ts';
import { engineClient, session, transportError } from '../../lib/engine.ts';
import { CliError, UsageError, errorLine } from '../../lib/errors.ts';
import { printJson } from '../../lib/output.ts';
import { resolveSdkRef } from './versions.ts';

/** `demo-crm=contacts/list` and `demo-crm.contacts/list` both name the public operation ID. */
export const publicOperationId = (op: string) => (/^[a-z][a-z0-9-]*=/.test(op) ? op.replace('=', '.') : op);

function parseParams(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--params is not valid JSON (${(err as Error).message})`, `pass a JSON object, e.g. --params '{"limit": 10}'`);
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
  error: { code: string; message: string } | null;
}
const isEnvelope = (v: unknown): v is Envelope => typeof v === 'object' && v !== null && 'ok' in v && 'status' in v && 'error' in v;

function hintFor(code: string, ref: string): string {
  switch (code) {
    case 'ENGINE_UNAUTHENTICATED':
      return `SVC_EXECUTION_TOKEN must hold the token printed by the first \`svc-cli sdk apply\` of ${ref.split('@')[0]}`;
    case 'ENGINE_FORBIDDEN_OPERATION':
    case 'ENGINE_UNKNOWN_OPERATION':
      return `call an operation selected in ${ref} (see \`svc-cli sdk list\`)`;
    case 'ENGINE_INVALID_INPUT':
    case 'ENGINE_PAGINATION_INVALID':
      return 'fix --params (the message names the field)';
    case 'ENGINE_CREDENTIAL_MISSING':
      return "store the provider's secret with `svc-cli secret set <service> --value-stdin`";
    case 'ENGINE_CREDENTIAL_REFRESH_FAILED':
      return 'reconnect the end user with `svc-cli connection create`';
    case 'PROVIDER_UNREACHABLE':
    case 'PROVIDER_TIMEOUT':
      return "check the service's base URL (`svc-cli workspace plan`) and that the provider is up";
    case 'ENGINE_OUTCOME_UNKNOWN':
      return 'check the provider for the outcome before calling again';
    default:
      return "the envelope's data holds the provider's answer";
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
      .example(`$0 sdk invoke crm@1.0.0 demo-crm.contacts/list --params '{"limit": 10}'`, 'list contacts')
      .example(`$0 sdk invoke crm@1.0.0 demo-crm.contacts/create --params '{"body": {"name": "Ada", "email": "ada@example.test"}}'`, 'create a contact'),
  handler: async (argv) => {
    const input = parseParams(argv.params);
    if (argv.maxPages !== undefined && (!Number.isInteger(argv.maxPages) || argv.maxPages < 1)) {
      throw new UsageError('--max-pages must be a positive integer', 'e.g. --max-pages 2');
    }
    const token = process.env.SVC_EXECUTION_TOKEN?.trim();
    if (!token) throw new CliError('SVC_EXECUTION_TOKEN is not set', 'export the execution token printed by the first `svc-cli sdk apply`');
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
    if (!isEnvelope(envelope)) throw new CliError(`the Engine answered HTTP ${answer.response.status} without a result envelope`, 'check SVC_ENGINE_URL');
    printJson(envelope);
    if (!envelope.ok) {
      const what = envelope.error ? `${envelope.error.code}: ${envelope.error.message}` : `status ${envelope.status}`;
      process.stderr.write(errorLine(`${operation} failed (${what})`, hintFor(envelope.error?.code ?? '', argv.ref)) + '\n');
      process.exitCode = 1;
    }
  },
});
