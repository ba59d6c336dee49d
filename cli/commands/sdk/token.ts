// `svc-cli sdk token list|create|revoke`: execution tokens of an SDK app. The first apply prints
// one; these issue more (to rotate a token: create, switch the callers, revoke the old one).
import { defineCommand, defineGroup, jsonOption } from '../../lib/command.ts';
import { session } from '../../lib/engine.ts';
import { parseExpires } from '../../lib/expires.ts';
import { print, printJson, printTable } from '../../lib/output.ts';
import { accessText, revokeTokenCommand, tokenState } from '../app/tokens.ts';

/** The Engine's refusals of these fields, told as the argument or flag they came from (exit 2). */
const NAME_FLAG = { name: '<sdk>' };
const CREATE_FLAGS = { ...NAME_FLAG, expiresAt: '--expires' };
const notFound = (sdk: string) => (f: { status: number }) => (f.status === 404 ? `check the SDK name (\`svc-cli sdk list\`); got '${sdk}'` : undefined);

const tokenList = defineCommand({
  command: 'list <sdk>',
  describe: 'List the execution tokens of an SDK app: expiry, last use, state (never their values)',
  builder: (y) => jsonOption(y.positional('sdk', { type: 'string', demandOption: true, describe: 'SDK app name' })).example('$0 sdk token list crm', 'tokens of crm'),
  handler: async (argv) => {
    const s = session();
    const { tokens } = await s.call(s.api.GET('/v1/sdks/{name}/tokens', { params: { path: { name: argv.sdk } } }), notFound(argv.sdk), NAME_FLAG);
    if (argv.json) return printJson({ tokens });
    printTable(
      ['ID', 'ACCESS', 'EXPIRES', 'LAST USED', 'STATE', 'CREATED'],
      tokens.map((t) => [t.id, accessText(t), t.expiresAt ?? 'never', t.lastUsedAt ?? 'never', tokenState(t), t.createdAt]),
      `No tokens for ${argv.sdk}.`,
    );
  },
});

const tokenCreate = defineCommand({
  command: 'create <sdk>',
  describe: 'Issue another execution token for every version of an SDK app (shown once)',
  builder: (y) =>
    jsonOption(
      y
        .positional('sdk', { type: 'string', demandOption: true, describe: 'SDK app name' })
        .option('expires', { type: 'string', demandOption: true, requiresArg: true, describe: 'when it stops working: 30m, 24h, 7d, an ISO-8601 date-time, or never' })
        .option('read-only', { type: 'boolean', describe: 'call only read-only operations (GET and those the service declares so); any other is refused before anything is sent' }),
    )
      .example('$0 sdk token create crm --expires never', 'a second token, e.g. to rotate the first')
      .example('$0 sdk token create crm --expires 30d --read-only', 'a token that can only read')
      .example('$0 sdk token create crm --expires 90d --json', 'a token for 90 days, as JSON'),
  handler: async (argv) => {
    const expiresAt = parseExpires(argv.expires);
    const s = session();
    const created = await s.call(s.api.POST('/v1/sdks/{name}/tokens', { params: { path: { name: argv.sdk } }, body: { expiresAt, ...(argv.readOnly ? { readOnly: true } : {}) } }), notFound(argv.sdk), CREATE_FLAGS);
    if (argv.json) return printJson(created);
    print(`Created token ${created.id} for ${argv.sdk} (every version)`);
    print(`  expires  ${created.expiresAt ?? 'never'}`);
    if (created.readOnly) print('  access   read-only');
    print('Token (shown only this once; store it now, e.g. as SVC_EXECUTION_TOKEN):');
    print(`  ${created.token}`);
  },
});

export const sdkToken = defineGroup('token', 'Issue, list and revoke execution tokens of an SDK app', [tokenList, tokenCreate, revokeTokenCommand('sdk', 'sdk token list <sdk>')], [
  ['$0 sdk token create crm --expires never', 'a new token; then revoke the old one with `sdk token revoke`'],
]);
