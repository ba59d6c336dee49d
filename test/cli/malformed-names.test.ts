// A malformed service or app name given to svc-cli is a usage error (exit 2) naming the argument it
// came from, as in `workspace service add`, never the Engine request's internals (found by review).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { cliUser, oneErrorLine, type CliUser } from '../fixtures/cli.ts';

let t: TestEngine;
let user: CliUser;

beforeAll(async () => {
  t = await startTestEngine();
  user = cliUser(t.url);
});
afterAll(async () => {
  await t?.stop();
  user?.cleanup();
});

const cli = (args: string[], input?: string) => user.cli(args, { env: { SVC_CLI_TOKEN: t.cliToken }, ...(input !== undefined ? { input } : {}) });

describe('malformed names', () => {
  it.each([
    [['secret', 'set', 'Bad_Name', '--value-stdin'], '<service>', 'x-value'],
    [['sdk', 'token', 'list', 'Bad_Name'], '<sdk>'],
    [['sdk', 'token', 'create', 'Bad_Name', '--expires', 'never'], '<sdk>'],
    [['mcp', 'token', 'list', 'Bad_Name'], '<mcp>'],
    [['mcp', 'token', 'create', 'Bad_Name', '--allow', 'demo-crm.contacts/get', '--expires', 'never'], '<mcp>'],
    [['connection', 'list', '--service', 'Bad_Name'], '--service'],
    [['connection', 'create', 'Bad_Name', '--end-user', 'alice', '--no-browser', '--timeout', '1'], '<service>'],
  ] as [string[], string, string?][])('%j names %s', async (args, label, input) => {
    const r = await cli(args, input);
    expect(r.code, r.stderr).toBe(2);
    const line = oneErrorLine(r.stderr);
    expect(line).toContain(label);
    expect(line).not.toMatch(/parameters\/|body\//);
  });
});
