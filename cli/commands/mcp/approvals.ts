// `svc-cli mcp approvals`: the calls MCP servers stopped for approval (requireApproval) that still
// wait for a person, so they can be read before `svc-cli mcp approve <id>`.
import { defineCommand, jsonOption } from '../../lib/command.ts';
import { session } from '../../lib/engine.ts';
import { printJson, printTable } from '../../lib/output.ts';

export const mcpApprovals = defineCommand({
  command: 'approvals',
  describe: 'List the calls waiting for approval (requireApproval): server, operation, params, expiry',
  builder: (y) =>
    jsonOption(y)
      .example('$0 mcp approvals', 'what agents are waiting to do; approve one with `svc-cli mcp approve <id>`')
      .example('$0 mcp approvals --json', 'print {approvals: [...]}, each with its params summary'),
  handler: async (argv) => {
    const s = session();
    const { approvals } = await s.call(s.api.GET('/v1/mcp/approvals'));
    if (argv.json) return printJson({ approvals });
    printTable(
      ['ID', 'SERVER', 'OPERATION', 'PARAMS', 'EXPIRES'],
      approvals.map((a) => [a.id, a.server, a.operation, JSON.stringify(a.params), a.expiresAt]),
      'No calls are waiting for approval.',
    );
  },
});
