// The OAuth grant store (src/store/grant-types.ts) on SQLite and on PostgreSQL: a code is
// exchanged once, a refresh token spent once however many replicas race for it, a grant's token
// is read with its grant and token row, and expired codes and tokens are purged.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore, type GrantCodeRow, type GrantRow, type GrantTokenRow, type Store, type TokenRow } from '../../src/store/index.ts';
import { PostgresStore } from '../../src/store/postgres.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/postgres.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

const backends: [string, () => Promise<Store[]>][] = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-grants-'));
      const store = new SqliteStore(join(dir, 'engine.db'));
      cleanups.push(async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      });
      return [store];
    },
  ],
  [
    'PostgreSQL (two replicas)',
    async () => {
      const db: TestDatabase = await createTestDatabase();
      const stores = [await PostgresStore.open(db.url), await PostgresStore.open(db.url)];
      cleanups.push(async () => {
        for (const s of stores) await s.close();
        await db.drop();
      });
      return stores;
    },
  ],
];

const at = (minutes: number) => new Date(Date.UTC(2030, 0, 1, 0, minutes)).toISOString();

const code = (hash: string, extra: Partial<GrantCodeRow> = {}): GrantCodeRow => ({
  hash,
  clientId: 'https://app.example/client.json',
  clientName: 'App',
  redirectUri: 'http://127.0.0.1:5555/callback',
  codeChallenge: 'c'.repeat(43),
  versionId: 'ver_01J00000000000000000000000',
  resource: 'http://127.0.0.1:8700/mcp/ver_01J00000000000000000000000',
  serverName: 'agents',
  approvedBy: 'owner',
  allow: ['demo-crm.contacts/list'],
  grantExpiresAt: at(600),
  createdAt: at(0),
  expiresAt: at(1),
  usedAt: null,
  grantId: null,
  ...extra,
});
const principal = (id: string): TokenRow => ({
  id,
  kind: 'mcp',
  subject: 'agents',
  hash: `p-${id}`,
  createdAt: at(0),
  expiresAt: at(600),
  revokedAt: null,
  lastUsedAt: null,
  allow: ['demo-crm.contacts/list'],
  binding: null,
});
const grant = (id: string): GrantRow => ({
  id,
  clientId: 'https://app.example/client.json',
  clientName: 'App',
  redirectUri: 'http://127.0.0.1:5555/callback',
  versionId: 'ver_01J00000000000000000000000',
  resource: 'http://127.0.0.1:8700/mcp/ver_01J00000000000000000000000',
  approvedBy: 'owner',
  createdAt: at(0),
});
const token = (hash: string, grantId: string, kind: GrantTokenRow['kind'], expiresAt = at(60)): GrantTokenRow => ({ hash, grantId, kind, createdAt: at(0), expiresAt, spentAt: null });

describe.each(backends)('grant store on %s', (_name, open) => {
  it('registers clients, exchanges a code once and reads a token with its grant', async () => {
    const [a, b = a] = await open();
    await a!.grants.insertClient({ clientId: 'mcpc_1', clientName: null, redirectUris: ['http://127.0.0.1/cb'], createdAt: at(0) });
    expect(await b!.grants.getClient('mcpc_1')).toEqual({ clientId: 'mcpc_1', clientName: null, redirectUris: ['http://127.0.0.1/cb'], createdAt: at(0) });
    expect(await b!.grants.getClient('mcpc_2')).toBeNull();

    await a!.grants.insertCode(code('code-1'));
    expect(await b!.grants.getCode('code-1')).toEqual(code('code-1'));
    const issue = (id: string) => ({ principal: principal(id), grant: grant(id), tokens: [token(`acc-${id}`, id, 'access'), token(`ref-${id}`, id, 'refresh')] });
    const raced = await Promise.all([a!.grants.redeemCode('code-1', at(0), issue('tok_A')), b!.grants.redeemCode('code-1', at(0), issue('tok_B'))]);
    expect(raced.filter(Boolean)).toHaveLength(1);
    const winner = raced[0] ? 'tok_A' : 'tok_B';
    const loser = raced[0] ? 'tok_B' : 'tok_A';
    expect(await a!.grants.getCode('code-1')).toMatchObject({ usedAt: at(0), grantId: winner });
    expect(await a!.getTokenByHash(`p-${loser}`)).toBeNull();
    expect(await b!.grants.readToken(`acc-${loser}`)).toBeNull();

    expect(await b!.grants.readToken(`acc-${winner}`)).toEqual({ token: token(`acc-${winner}`, winner, 'access'), grant: grant(winner), principal: principal(winner) });
    expect(await a!.grants.listGrants('agents')).toEqual([grant(winner)]);
    expect(await a!.grants.listGrants('other')).toEqual([]);
    // The principal is an ordinary token row: revoking it is seen through the grant's tokens.
    expect(await a!.revokeToken(winner, at(2), ['mcp'])).toBe(true);
    expect((await b!.grants.readToken(`ref-${winner}`))!.principal.revokedAt).toBe(at(2));
  });

  it('spends a refresh token exactly once when replicas race for it, and purges what expired', async () => {
    const [a, b = a] = await open();
    await a!.grants.insertCode(code('code-2'));
    await a!.grants.redeemCode('code-2', at(0), { principal: principal('tok_R'), grant: grant('tok_R'), tokens: [token('ref-0', 'tok_R', 'refresh')] });
    const next = (n: number) => ({ tokens: [token(`acc-${n}`, 'tok_R', 'access'), token(`ref-${n}`, 'tok_R', 'refresh')] });
    const won = await Promise.all([1, 2, 3, 4].map((n) => (n % 2 ? a! : b!).grants.rotateRefresh('ref-0', at(3), next(n))));
    expect(won.filter(Boolean)).toHaveLength(1);
    const n = won.indexOf(true) + 1;
    expect((await b!.grants.readToken('ref-0'))!.token.spentAt).toBe(at(3));
    expect(await b!.grants.readToken(`ref-${n}`)).toMatchObject({ token: { spentAt: null, kind: 'refresh' } });
    // An access token can never be "rotated".
    expect(await a!.grants.rotateRefresh(`acc-${n}`, at(4), next(9))).toBe(false);

    await a!.grants.insertCode(code('code-old', { expiresAt: '2020-01-01T00:00:00.000Z' }));
    await a!.grants.insertCode(code('code-live', { expiresAt: new Date(Date.now() + 60_000).toISOString() }));
    await a!.deleteExpired(new Date().toISOString());
    expect(await b!.grants.getCode('code-old')).toBeNull();
    expect(await b!.grants.getCode('code-live')).not.toBeNull();
    // Tokens of 2030 are not expired yet; the grant's token row stays (it is listed, revoked or not).
    expect(await b!.grants.readToken(`acc-${n}`)).not.toBeNull();
  });
});
