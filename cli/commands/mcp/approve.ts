// `svc-cli mcp approve <approval-id>`: a person approves a call an MCP server's requireApproval
// stopped; the agent's re-run of the same call with the same token then passes, once.
import { defineCommand, jsonOption } from '../../lib/command.ts';
import { session } from '../../lib/engine.ts';
import { print, printJson } from '../../lib/output.ts';

const APPROVAL_ID = /^apr_[0-9A-HJKMNP-TV-Z]{26}$/;

export const mcpApprove = defineCommand({
  command: 'approve <approval-id>',
  describe: 'Approve a call that an MCP server stopped for approval (requireApproval); the agent then runs it again, once',
  builder: (y) =>
    jsonOption(y.positional('approval-id', { type: 'string', demandOption: true, describe: 'the apr_… ID the stopped execute named' }))
      .example('$0 mcp approve apr_01JD8Z6Q0R6V7S1K2M3N4P5Q6R', 'let the agent re-run that call within 15 minutes')
      .example('$0 mcp approve apr_01JD8Z6Q0R6V7S1K2M3N4P5Q6R --json', 'print the approval as JSON'),
  handler: async (argv) => {
    const id = argv.approvalId;
    const s = session();
    const approval = await s.call(
      s.api.POST('/v1/mcp/approvals/{approval_id}/approve', { params: { path: { approval_id: id } } }),
      (f) => (f.status === 404 ? `check the ID the stopped execute named${APPROVAL_ID.test(id) ? '' : " (it looks like 'apr_' and 26 characters)"}` : undefined),
      { approval_id: '<approval-id>' },
    );
    if (argv.json) return printJson(approval);
    print(`Approved ${approval.id}: ${approval.operation} on ${approval.server}`);
    print(`  params   ${JSON.stringify(approval.params)}`);
    print(`  valid    until ${approval.expiresAt}, for one run of the same call with the same token`);
  },
});
