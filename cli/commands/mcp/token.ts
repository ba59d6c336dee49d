// `svc-cli mcp token list|create|revoke`: narrowed MCP tokens (allowlist, expiry, fixed binding).
import { defineCommand, defineGroup, jsonOption, repeatable } from '../../lib/command.ts';
import { EngineCallError, session } from '../../lib/engine.ts';
import { UsageError } from '../../lib/errors.ts';
import { parseExpires } from '../../lib/expires.ts';
import { print, printJson, printTable } from '../../lib/output.ts';
import { refuseBlank } from '../../lib/usage.ts';
import { publicOperationId } from '../sdk/invoke.ts';
import { accessText, revokeTokenCommand, tokenState } from '../app/tokens.ts';

const notFound = (mcp: string) => (f: { status: number }) => (f.status === 404 ? `check the MCP server name or version ID (\`svc-cli mcp list\`); got '${mcp}'` : undefined);

/**
 * An Engine refusal of a field the CLI built from a flag (`allow[1]`, `expiresAt`), told as that
 * flag: a usage error (exit 2), like the CLI's own checks of the same flags.
 */
function asFlagError(err: unknown, mcp: string, allow: string[]): unknown {
  if (!(err instanceof EngineCallError) || err.failure.status !== 400) return err;
  const field = typeof err.failure.details?.field === 'string' ? err.failure.details.field : undefined;
  const index = field ? /^allow\[(\d+)\]$/.exec(field) : null;
  if (index) {
    const rest = err.failure.message.replace(/^allow\[\d+\]:?\s*/, '');
    const what = rest.startsWith("'") ? `--allow ${rest}` : `--allow '${allow[Number(index[1])]}': ${rest}`;
    return new UsageError(what, `allow only operations ${mcp} exposes (those in its svc.mcp.json), e.g. 'demo-crm.contacts/*'`);
  }
  if (field === 'expiresAt') {
    return new UsageError(`--expires: ${err.failure.message.replace(/^expiresAt:?\s*/, '')}`, 'use 30m, 24h, 7d, an ISO-8601 date-time or never');
  }
  return err;
}

/** The binding fields and the flags that fill them, for the Engine's refusals of their values. */
const BINDING_FLAGS = { name: '<mcp>', 'binding.endUserRef': '--end-user', 'binding.authName': '--auth-name', 'binding.resourceId': '--resource-id' };

const bindingText = (b: { endUserRef?: string; authName?: string; resourceId?: string } | null | undefined) =>
  b ? [b.endUserRef && `end user ${b.endUserRef}`, b.authName && `auth ${b.authName}`, b.resourceId && `resource ${b.resourceId}`].filter(Boolean).join(', ') : '';

/** Who holds a token: `static` (issued here), or the MCP client an OAuth grant went to, with where it receives its answers. */
const holderText = (client: { name: string; redirectUri: string; versionId: string } | undefined) => {
  if (!client) return 'static';
  let host = client.redirectUri;
  try {
    host = new URL(client.redirectUri).host;
  } catch {
    /* shown as registered */
  }
  return `OAuth: ${client.name} (${host}) on ${client.versionId}`;
};

const tokenList = defineCommand({
  command: 'list <mcp>',
  describe: 'List the tokens of an MCP server, static and granted to MCP clients over OAuth: allowlist, expiry, last use',
  builder: (y) =>
    jsonOption(y.positional('mcp', { type: 'string', demandOption: true, describe: 'MCP server name or version ID' }))
      .example('$0 mcp token list crm-agent', 'tokens of crm-agent'),
  handler: async (argv) => {
    const s = session();
    const { tokens } = await s.call(s.api.GET('/v1/mcp/{name}/tokens', { params: { path: { name: argv.mcp } } }), notFound(argv.mcp), { name: '<mcp>' });
    if (argv.json) return printJson({ tokens });
    printTable(
      ['ID', 'ALLOW', 'ACCESS', 'EXPIRES', 'LAST USED', 'STATE', 'BINDING', 'CREATED', 'HOLDER'],
      tokens.map((t) => [t.id, t.allow ? t.allow.join(' ') : '* (every operation)', accessText(t), t.expiresAt ?? 'never', t.lastUsedAt ?? 'never', tokenState(t), bindingText(t.binding), t.createdAt, holderText(t.client)]),
      `No tokens for ${argv.mcp}.`,
    );
  },
});

/** What `mcp token create` and `mcp connect --token` issue: a token narrowed to `allow` (operation IDs or globs) until `expires`. */
export async function mintToken(mcp: string, options: { allow: string[]; expires: string; binding?: { endUserRef?: string; authName?: string; resourceId?: string }; readOnly?: boolean }) {
  const expiresAt = parseExpires(options.expires);
  const allow = options.allow.map(publicOperationId);
  for (const a of allow) {
    if (!/^(\*|[a-z][a-z0-9-]*\.[^*]*\*?)$/.test(a)) {
      throw new UsageError(`--allow '${a}' is not an operation ID`, "write <service>.<operation>, optionally ending in * (e.g. 'demo-crm.contacts/*')");
    }
  }
  const binding = options.binding ?? {};
  const s = session();
  return s
    .call(
      s.api.POST('/v1/mcp/{name}/tokens', {
        params: { path: { name: mcp } },
        body: { allow, expiresAt, ...(Object.keys(binding).length ? { binding } : {}), ...(options.readOnly ? { readOnly: true } : {}) },
      }),
      notFound(mcp),
      BINDING_FLAGS,
    )
    .catch((err: unknown) => {
      throw asFlagError(err, mcp, allow);
    });
}

const tokenCreate = defineCommand({
  command: 'create <mcp>',
  describe: 'Issue a narrowed MCP token (shown once)',
  builder: (y) =>
    jsonOption(
      y
        .positional('mcp', { type: 'string', demandOption: true, describe: 'MCP server name or version ID' })
        .option('allow', { ...repeatable("operation ID to allow, e.g. demo-crm.contacts/list or 'demo-crm.contacts/*' (repeatable)"), demandOption: true })
        .option('expires', { type: 'string', demandOption: true, requiresArg: true, describe: 'when it stops working: 30m, 24h, 7d, an ISO-8601 date-time, or never' })
        .option('end-user', { type: 'string', requiresArg: true, describe: 'bind every call to this end user (authoritative over the caller)' })
        .option('auth-name', { type: 'string', requiresArg: true, describe: "bind every call to the end user's connection of this name" })
        .option('resource-id', { type: 'string', requiresArg: true, describe: 'bind every call to this resource' })
        .option('read-only', { type: 'boolean', describe: 'call only read-only operations (read_only in search_docs); any other is refused before anything is sent' }),
    )
      .example('$0 mcp token create crm-agent --allow demo-crm.contacts/list --expires 7d', 'read-only contacts for a week')
      .example("$0 mcp token create crm-agent --allow 'demo-crm.contacts/*' --expires never --end-user alice --json", 'bound to one end user, as JSON')
      .example("$0 mcp token create crm-agent --allow '*' --read-only --expires 7d", 'every operation that only reads, for a week'),
  handler: async (argv) => {
    for (const [flag, value] of [['--end-user', argv.endUser], ['--auth-name', argv.authName], ['--resource-id', argv.resourceId]] as const) {
      // An empty value (an unset shell variable) would mint a token bound to nothing: its caller picks.
      refuseBlank(flag, value, `give a value, or leave ${flag} out for an unbound token`);
    }
    const binding = {
      ...(argv.endUser !== undefined ? { endUserRef: argv.endUser } : {}),
      ...(argv.authName !== undefined ? { authName: argv.authName } : {}),
      ...(argv.resourceId !== undefined ? { resourceId: argv.resourceId } : {}),
    };
    const created = await mintToken(argv.mcp, { allow: argv.allow, expires: argv.expires, binding, readOnly: argv.readOnly === true });
    if (argv.json) return printJson(created);
    print(`Created token ${created.id} for ${argv.mcp}`);
    print(`  allow    ${created.allow.join(' ')}`);
    print(`  expires  ${created.expiresAt ?? 'never'}`);
    if (created.binding) print(`  binding  ${bindingText(created.binding)}`);
    if (created.readOnly) print('  access   read-only');
    print('Token (shown only this once; store it now):');
    print(`  ${created.token}`);
  },
});

const tokenRevoke = revokeTokenCommand('mcp', 'mcp token list <mcp>');

export const mcpToken = defineGroup('token', 'Issue, list and revoke MCP tokens (and the grants MCP clients obtained with OAuth)', [tokenList, tokenCreate, tokenRevoke], [
  ['$0 mcp token create crm-agent --allow demo-crm.contacts/list --expires 24h', 'a narrowed token for a day'],
]);
