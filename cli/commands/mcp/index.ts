// `svc-cli mcp …`: MCP servers exposing approved operations to agents (search_docs + execute).
import { defineCommand, defineGroup, jsonOption } from '../../lib/command.ts';
import { MCP } from '../../lib/definition.ts';
import { session } from '../../lib/engine.ts';
import { printJson, printTable } from '../../lib/output.ts';
import { applyCommand, initCommand, planCommand } from '../app/definition.ts';
import { mcpActivity } from './activity.ts';
import { mcpApprovals } from './approvals.ts';
import { mcpApprove } from './approve.ts';
import { mcpConnect } from './connect.ts';
import { mcpToken } from './token.ts';

const mcpApply = applyCommand(MCP, {
  extra: (r, url) => ({ url: r.url ?? `${url}/mcp/${r.versionId}` }),
  examples: [
    ['$0 mcp apply', 'deploy ./svc.mcp.json; the first deploy prints an unrestricted token once'],
    ['$0 mcp apply --json', 'print {name, version, versionId, published, url, token?}'],
  ],
});

const mcpList = defineCommand({
  command: 'list',
  describe: 'List MCP servers: name, version, ID, active state, runtime URL',
  builder: (y) => jsonOption(y).example('$0 mcp list', 'every MCP server version'),
  handler: async (argv) => {
    const s = session();
    const { servers } = await s.call(s.api.GET('/v1/mcp'));
    if (argv.json) return printJson({ servers });
    printTable(
      ['NAME', 'VERSION', 'ID', 'ACTIVE', 'URL'],
      servers.map((m) => [m.name, m.version, m.versionId, m.active ? 'yes' : 'no', m.url]),
      'No MCP servers yet; create one with `svc-cli mcp init`.',
    );
  },
});

export const mcp = defineGroup(
  'mcp',
  'Deploy MCP servers for agents and manage their tokens',
  [initCommand(MCP), planCommand(MCP), mcpApply, mcpList, mcpActivity, mcpConnect, mcpToken, mcpApprovals, mcpApprove],
  [
    ["$0 mcp init crm-agent --service 'demo-crm=v1' --operation 'demo-crm=contacts/*'", 'define an MCP server'],
    ['$0 mcp plan && $0 mcp apply', 'preview and deploy it'],
    ['$0 mcp connect crm-agent --client claude-code', 'add it to Claude Code'],
  ],
);
