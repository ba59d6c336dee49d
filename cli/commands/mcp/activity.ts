// `svc-cli mcp activity <mcp>[@<version>]`: the receipts of an MCP server version, its active one
// unless a version is named: each call() of an agent's scripts (../app/activity.ts).
import { activityCommand, type VersionRef } from '../app/activity.ts';
import { MCP } from '../../lib/definition.ts';
import type { Session } from '../../lib/engine.ts';
import { CliError, UsageError, shownArgument } from '../../lib/errors.ts';

const REF = /^([a-z][a-z0-9-]{0,62})(?:@([0-9]+\.[0-9]+\.[0-9]+))?$/;

async function resolveMcpRef(s: Session, ref: string): Promise<VersionRef> {
  const match = REF.exec(ref);
  if (!match) throw new UsageError(`${shownArgument(ref)} is not <mcp_name> or <mcp_name>@<version>`, 'write it like crm-agent or crm-agent@1.0.0 (see `svc-cli mcp list`)');
  const [, name = '', version] = match;
  const { servers } = await s.call(s.api.GET('/v1/mcp'));
  const versions = servers.filter((m) => m.name === name);
  if (!versions.length) throw new CliError(`no MCP server named ${name}`, 'list them with `svc-cli mcp list`');
  const found = version === undefined ? versions.find((m) => m.active) : versions.find((m) => m.version === version);
  if (!found) throw new CliError(`${name} has no version ${version ?? '(none is active)'} (versions: ${versions.map((m) => m.version).join(', ')})`, 'pick one of those');
  return { name, version: found.version, versionId: found.versionId };
}

export const mcpActivity = activityCommand(MCP, {
  ref: 'crm-agent',
  refHelp: '<mcp_name>, or <mcp_name>@<version> (default: the active version)',
  resolve: resolveMcpRef,
  examples: [
    ['$0 mcp activity crm-agent', "what the agents' calls ran on the active version"],
    ['$0 mcp activity crm-agent@1.0.0 --json --limit 5', 'the last five receipts of that version as JSON'],
  ],
});
