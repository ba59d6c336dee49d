// svc-cli output and token commands (found by review): no escape sequences from Engine text reach a
// pipe, a group's revoke touches only its own tokens, a token pasted as <ref> is never echoed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliCrm, type CliCrm } from '../fixtures/apps.ts';
import { oneErrorLine, type CliUser } from '../fixtures/cli.ts';
import type { TestEngine } from '../fixtures/engine.ts';

let fx: CliCrm;
let t: TestEngine;
let user: CliUser;
let executionToken: string;

beforeAll(async () => {
  fx = await startCliCrm({ operations: ['contacts/list', 'contacts/get', 'deals/create'] });
  ({ t, user } = fx);
  executionToken = fx.sdk.token;
});
afterAll(() => fx?.stop());

/** The signed-in user (SVC_CLI_TOKEN), as automation would run it. */
const cli = (args: string[], options: Parameters<CliUser['cli']>[1] = {}) =>
  user.cli(args, { ...options, env: { SVC_CLI_TOKEN: t.cliToken, ...options.env } });


describe('svc-cli consistency review', { timeout: 90_000 }, () => {
  // Found by review: Engine-supplied text (an imported API's title) is printed raw, so ESC sequences reach a pipe under NO_COLOR.
  it('prints no ANSI escape codes into a pipe, even when a catalog title holds them', async () => {
    const document = [
      'openapi: 3.0.3',
      'info: { title: "Evil \\e[31mRED\\e[0m", version: "1" }',
      "servers: [{ url: 'http://127.0.0.1:9' }]",
      'paths:',
      '  /x:',
      '    get:',
      '      operationId: getX',
      "      responses: { '200': { description: ok } }",
    ].join('\n');
    const imported = await t.api('POST', '/v1/workspace/imports', { name: 'evil', version: 'v1', document });
    expect(imported.status, JSON.stringify(imported.body)).toBeLessThan(300);
    const r = await cli(['workspace', 'services', 'list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('evil');
    expect(r.stdout).not.toContain('\u001b');
  });

  // Found by review: `mcp token revoke` revokes an SDK execution token (and `sdk token revoke` an MCP token): DELETE /v1/tokens/{id} is not scoped.
  it('`mcp token revoke` refuses the ID of an SDK execution token and leaves it working', async () => {
    const created = await t.api('POST', '/v1/sdks/crm/tokens', { expiresAt: null });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    t.canaries.push(created.body.token);
    const sdkTokenId: string = created.body.id;
    const r = await cli(['mcp', 'token', 'revoke', sdkTokenId]);
    const after = await t.api('GET', '/v1/sdks/crm/tokens');
    expect(after.body.tokens.find((x: { id: string }) => x.id === sdkTokenId).revokedAt, r.stdout).toBeNull();
    expect(r.code).toBe(1);
  });

  // Found by review: an execution token pasted where <sdk>@<version> goes is echoed in full on stderr (errors.ts shownArgument is not used).
  it('never echoes an execution token given as the <ref> of sdk invoke or sdk activity', async () => {
    const runs = await Promise.all([
      cli(['sdk', 'invoke', executionToken, 'demo-crm.contacts/list'], { env: { SVC_EXECUTION_TOKEN: executionToken } }),
      cli(['sdk', 'activity', executionToken]),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).not.toContain(executionToken);
    }
  });
});
