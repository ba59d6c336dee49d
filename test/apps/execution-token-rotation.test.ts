// Rotating an SDK app's execution token: the first apply prints one token and a repeat apply never
// prints it again, so a leaked token is replaced by issuing another, then revoking the old one
// (before, a revoked first token left the app with no way to be called).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { cliUser, oneErrorLine, type CliUser } from '../fixtures/cli.ts';

let t: TestEngine;
let provider: FakeProvider;
let user: CliUser;
let sdk: { versionId: string; token: string };
const call = (token: string) => t.execute(sdk.versionId, token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1' } });

beforeAll(async () => {
  provider = await startFakeProvider((_req, res) => json(res, 200, { id: 'con_1' }));
  t = await startTestEngine();
  sdk = await publishSdk(t, { name: 'rotating', service: 'demo-crm', baseUrl: provider.url, secret: 'sdk-tokens-provider-key', operations: ['contacts/get'] });
  t.canaries.push(sdk.token);
  user = cliUser(t.url);
  expect((await user.cli(['login', '--with-token'], { input: t.cliToken })).code).toBe(0);
});

afterAll(async () => {
  await t?.stop(); // fails if any token reached a log line
  await provider?.stop();
  user?.cleanup();
});

describe('SDK execution tokens', () => {
  it('issues another token that calls every version, lists them without values, and revokes the old one', async () => {
    const issued = await t.api('POST', '/v1/sdks/rotating/tokens', {});
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ id: expect.stringMatching(/^tok_/), token: expect.stringMatching(/^svc_sdk_/), expiresAt: null });
    t.canaries.push(issued.body.token);
    expect((await call(issued.body.token)).body).toMatchObject({ ok: true });

    const listed = await t.api('GET', '/v1/sdks/rotating/tokens');
    expect(listed.body.tokens).toHaveLength(2);
    expect(JSON.stringify(listed.body)).not.toContain(sdk.token);
    expect(JSON.stringify(listed.body)).not.toContain(issued.body.token);

    const first = listed.body.tokens.find((x: { id: string }) => x.id !== issued.body.id);
    expect((await t.api('DELETE', `/v1/tokens/${first.id}`)).status).toBe(204);
    expect((await call(sdk.token)).status).toBe(401);
    expect((await call(issued.body.token)).body).toMatchObject({ ok: true }); // the app stays callable
    expect((await t.api('GET', '/v1/sdks/rotating/tokens')).body.tokens.find((x: { id: string }) => x.id === first.id).revokedAt).not.toBeNull();
  });

  it('honours an expiry, and refuses one in the past or an unknown app with the field named', async () => {
    const soon = await t.api('POST', '/v1/sdks/rotating/tokens', { expiresAt: new Date(Date.now() + 1200).toISOString() });
    t.canaries.push(soon.body.token);
    expect((await call(soon.body.token)).body).toMatchObject({ ok: true });
    await new Promise((r) => setTimeout(r, 1300));
    expect((await call(soon.body.token)).status).toBe(401);

    const past = await t.api('POST', '/v1/sdks/rotating/tokens', { expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.error.details.field).toBe('expiresAt');
    const unknown = await t.api('POST', '/v1/sdks/nope/tokens', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.details.field).toBe('name');
  });

  it('does the same through svc-cli sdk token create|list|revoke', async () => {
    const created = await user.cli(['sdk', 'token', 'create', 'rotating', '--expires', '7d', '--json']);
    expect(created.code).toBe(0);
    const token = JSON.parse(created.stdout) as { id: string; token: string; expiresAt: string };
    t.canaries.push(token.token);
    expect(Date.parse(token.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect((await call(token.token)).body).toMatchObject({ ok: true });

    const list = await user.cli(['sdk', 'token', 'list', 'rotating']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+ACCESS\s+EXPIRES\s+LAST USED\s+STATE\s+CREATED$/m);
    expect(list.stdout).toMatch(new RegExp(`${token.id}\\s+read-write\\s+\\S+\\s+\\S+\\s+active`));
    expect(list.stdout).not.toContain(token.token);

    const revoked = await user.cli(['sdk', 'token', 'revoke', token.id]);
    expect(revoked.code).toBe(0);
    expect((await call(token.token)).status).toBe(401);
    expect((await user.cli(['sdk', 'token', 'list', 'rotating'])).stdout).toMatch(new RegExp(`${token.id}\\s+read-write\\s+\\S+\\s+\\S+\\s+revoked`));

    // The token value given where its ID belongs is refused without being echoed.
    const mistaken = await user.cli(['sdk', 'token', 'revoke', token.token]);
    expect(mistaken.code).toBe(2);
    expect(mistaken.stderr).not.toContain(token.token);
    const bad = await user.cli(['sdk', 'token', 'create', 'rotating', '--expires', 'soon']);
    expect(bad.code).toBe(2);
    expect(oneErrorLine(bad.stderr)).toContain("--expires 'soon' is not understood");
  });
});
