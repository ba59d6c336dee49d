// The Store contract: every backend (SQLite now, PostgreSQL later) passes this suite unchanged.
import { describe, expect, it, beforeEach, afterEach } from 'vitest';
import { receiptIdAt } from '../../src/ids/index.ts';
import { receiptAt } from '../fixtures/receipts.ts';
import { randomBytes } from 'node:crypto';
import { StoreConflictError, type AppVersionRow, type ConnectionRow, type Store, type TokenRow, type ReceiptRow } from '../../src/store/index.ts';
import { SecretVault, seal } from '../../src/credentials/index.ts';

let n = 0;
const uniq = (p: string) => `${p}-${process.pid}-${++n}`;

const version = (name: string, label: string, extra: Partial<AppVersionRow> = {}): AppVersionRow => ({
  versionId: `ver_${String(++n).padStart(26, '0')}`,
  name,
  version: label,
  services: ['demo-crm=v1'],
  operations: ['demo-crm.contacts/get'],
  createdAt: new Date(Date.now() + n).toISOString(),
  ...extra,
});

const token = (subject: string, extra: Partial<TokenRow> = {}): TokenRow => ({
  id: `tok_${uniq('t')}`,
  kind: 'sdk',
  subject,
  hash: uniq('hash').padEnd(64, '0'),
  createdAt: new Date().toISOString(),
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: null,
  allow: null,
  binding: null,
  ...extra,
});

export function storeContract(backend: string, open: () => Promise<Store>, dispose: (store: Store) => Promise<void> = (s) => s.close()) {
  describe(`Store contract: ${backend}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await dispose(store);
    });

    it('answers a ping while open', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('enables, overrides and disables workspace services', async () => {
      const service = uniq('svc');
      await store.putWorkspaceService({ service, version: 'v1', baseUrl: null, enabledAt: '2026-01-01T00:00:00.000Z' });
      await store.putWorkspaceService({ service, version: 'v2', baseUrl: 'http://127.0.0.1:1', enabledAt: '2026-01-02T00:00:00.000Z' });
      expect(await store.getWorkspaceService(service)).toEqual({ service, version: 'v2', baseUrl: 'http://127.0.0.1:1', enabledAt: '2026-01-02T00:00:00.000Z' });
      expect((await store.listWorkspaceServices()).filter((s) => s.service === service)).toHaveLength(1);
      expect(await store.deleteWorkspaceService(service)).toBe(true);
      expect(await store.deleteWorkspaceService(service)).toBe(false);
      expect(await store.getWorkspaceService(service)).toBeNull();
    });

    it('replaces the enabled services at once, only while the check accepts the rows read inside it', async () => {
      const [x, y, z] = [uniq('svc-x'), uniq('svc-y'), uniq('svc-z')];
      const at = (day: number) => `2026-01-0${day}T00:00:00.000Z`;
      const mine = <R extends { service: string }>(rows: R[]) => rows.filter((r) => [x, y, z].includes(r.service)).sort((p, q) => (p.service < q.service ? -1 : 1));
      await store.putWorkspaceService({ service: x, version: 'v1', baseUrl: null, enabledAt: at(1) });
      await store.putWorkspaceService({ service: y, version: 'v1', baseUrl: null, enabledAt: at(1) });
      const others = (await store.listWorkspaceServices()).filter((r) => ![x, y, z].includes(r.service));
      let seen: string[] = [];
      const replaced = await store.replaceWorkspaceServices(
        [...others, { service: x, version: 'v1', baseUrl: null, enabledAt: at(2) }, { service: z, version: 'v2', baseUrl: 'http://127.0.0.1:1', enabledAt: at(2) }],
        (current) => {
          seen = mine(current).map((r) => `${r.service}=${r.version}`);
          return true;
        },
      );
      expect(replaced).toBe(true);
      expect(seen).toEqual([`${x}=v1`, `${y}=v1`]);
      // x unchanged keeps when it was enabled; y is gone; z is new.
      expect(mine(await store.listWorkspaceServices())).toEqual([
        { service: x, version: 'v1', baseUrl: null, enabledAt: at(1) },
        { service: z, version: 'v2', baseUrl: 'http://127.0.0.1:1', enabledAt: at(2) },
      ]);
      expect(await store.getWorkspaceService(y)).toBeNull();
      // Refused by the check: nothing written.
      expect(await store.replaceWorkspaceServices([{ service: y, version: 'v1', baseUrl: null, enabledAt: at(3) }], () => false)).toBe(false);
      expect(mine(await store.listWorkspaceServices()).map((r) => r.service)).toEqual([x, z]);

      // Replacements that all checked one state: exactly one lands, whole (never a mix of them).
      for (let round = 0; round < 5; round++) {
        const before = JSON.stringify(mine(await store.listWorkspaceServices()));
        const wants = [x, y, z].map((service) => [...others, { service, version: `v${round + 3}`, baseUrl: null, enabledAt: at(4) }]);
        const results = await Promise.all(wants.map((rows) => store.replaceWorkspaceServices(rows, (current) => JSON.stringify(mine(current)) === before)));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(mine(await store.listWorkspaceServices())).toEqual(mine(wants[results.indexOf(true)]!));
      }
    });

    it('keeps imported services by service and version, never replacing one', async () => {
      const service = uniq('imp');
      expect(await store.insertImportedService({ service, version: 'v1', index: '{"a":1}', importedAt: '2026-01-01T00:00:00.000Z' })).toBe(true);
      expect(await store.insertImportedService({ service, version: 'v1', index: '{"a":2}', importedAt: '2026-01-01T00:00:01.000Z' })).toBe(false);
      expect(await store.insertImportedService({ service, version: 'v2', index: '{"a":3}', importedAt: '2026-01-01T00:00:02.000Z' })).toBe(true);
      const rows = (await store.listImportedServices()).filter((r) => r.service === service);
      expect(rows).toEqual([
        { service, version: 'v1', index: '{"a":1}', importedAt: '2026-01-01T00:00:00.000Z' },
        { service, version: 'v2', index: '{"a":3}', importedAt: '2026-01-01T00:00:02.000Z' },
      ]);
      // Only what was imported at or after a time (a replica reading what is new).
      const recent = (await store.listImportedServices('2026-01-01T00:00:01.000Z')).filter((r) => r.service === service);
      expect(recent.map((r) => r.version)).toEqual(['v2']);
    });

    it('upserts secrets per bucket and service and lists them without values', async () => {
      const service = uniq('sec');
      await store.putSecret({ bucket: 'default', service, ciphertext: 'c1', nonce: 'n1', tag: 't1', updatedAt: '2026-01-01T00:00:00.000Z' });
      await store.putSecret({ bucket: 'default', service, ciphertext: 'c2', nonce: 'n2', tag: 't2', updatedAt: '2026-01-02T00:00:00.000Z' });
      expect(await store.getSecret('default', service)).toMatchObject({ ciphertext: 'c2', nonce: 'n2', tag: 't2' });
      expect(await store.getSecret('other', service)).toBeNull();
      const listed = (await store.listSecrets()).find((s) => s.service === service)!;
      expect(listed).toEqual({ bucket: 'default', service, updatedAt: '2026-01-02T00:00:00.000Z' });
      expect(listed).not.toHaveProperty('ciphertext');
    });

    it('deletes one bucket+service secret and says whether there was one', async () => {
      const service = uniq('sec');
      await store.putSecret({ bucket: 'default', service, ciphertext: 'c1', nonce: 'n1', tag: 't1', updatedAt: '2026-01-01T00:00:00.000Z' });
      await store.putSecret({ bucket: 'default', service: `${service}#oauth-client`, ciphertext: 'c2', nonce: 'n2', tag: 't2', updatedAt: '2026-01-01T00:00:00.000Z' });
      expect(await store.deleteSecret('other', service)).toBe(false);
      expect(await store.deleteSecret('default', service)).toBe(true);
      expect(await store.getSecret('default', service)).toBeNull();
      expect(await store.deleteSecret('default', service)).toBe(false);
      // Its neighbour (the service's OAuth client) stays.
      expect(await store.getSecret('default', `${service}#oauth-client`)).toMatchObject({ ciphertext: 'c2' });
      expect((await store.listSecrets()).filter((s) => s.service.startsWith(service)).map((s) => s.service)).toEqual([`${service}#oauth-client`]);
    });

    it('replaces a secret only while it still holds the sealed value read (compare-and-set)', async () => {
      const service = uniq('cas');
      const at = '2026-01-01T00:00:00.000Z';
      await store.putSecret({ bucket: 'default', service, ciphertext: 'c0', nonce: 'n0', tag: 't0', updatedAt: at });
      const read = (await store.getSecret('default', service))!;
      // Writers that all read the same value: exactly one wins, and its value is the one kept.
      const writers = ['a', 'b', 'c', 'd'];
      const won = await Promise.all(writers.map((w) => store.replaceSecret(read, { ciphertext: `c-${w}`, nonce: `n-${w}`, tag: `t-${w}`, updatedAt: at })));
      expect(won.filter(Boolean)).toHaveLength(1);
      const winner = writers[won.indexOf(true)]!;
      expect(await store.getSecret('default', service)).toEqual({ bucket: 'default', service, ciphertext: `c-${winner}`, nonce: `n-${winner}`, tag: `t-${winner}`, updatedAt: at });
      // A value set in between (`secret set`) is never overwritten by one derived from the older read.
      const current = (await store.getSecret('default', service))!;
      await store.putSecret({ ...current, ciphertext: 'c-set', nonce: 'n-set', tag: 't-set' });
      expect(await store.replaceSecret(current, { ciphertext: 'c-late', nonce: 'n-late', tag: 't-late', updatedAt: at })).toBe(false);
      expect(await store.getSecret('default', service)).toMatchObject({ ciphertext: 'c-set', nonce: 'n-set', tag: 't-set' });
      // Only that bucket+service: the same value elsewhere is no match, and a deleted secret is not recreated.
      const set = (await store.getSecret('default', service))!;
      expect(await store.replaceSecret({ ...set, bucket: 'other' }, { ciphertext: 'x', nonce: 'x', tag: 'x', updatedAt: at })).toBe(false);
      expect(await store.deleteSecret('default', service)).toBe(true);
      expect(await store.replaceSecret(set, { ciphertext: 'x', nonce: 'x', tag: 'x', updatedAt: at })).toBe(false);
      expect(await store.getSecret('default', service)).toBeNull();
      expect(await store.getSecret('other', service)).toBeNull();
    });

    it('binds unbound (v1) secrets once across concurrent binders, never over a value set meanwhile', async () => {
      const key = randomBytes(32);
      const [svcA, svcB] = [uniq('bind'), uniq('bind')];
      const v1 = (service: string, value: string) => ({ bucket: 'default', service, ...seal(key, `svc-engine/secret/v1\0default\0${service}`, value), updatedAt: '2026-01-01T00:00:00.000Z' });
      await store.putSecret(v1(svcA, 'value-a'));
      await store.putSecret(v1(svcB, 'value-b'));
      const mine = (s: string) => s === svcA || s === svcB;
      // Two replicas bind at once (each reads both v1 rows before either writes): each row is bound by one of them.
      const replicas = [new SecretVault(key, store), new SecretVault(key, store)];
      const bound = await Promise.all(replicas.map((vault, i) => vault.bindUnbound(async (s) => (mine(s) ? `http://replica-${i}.test` : null))));
      expect(bound[0]! + bound[1]!).toBe(2);
      const kept = await Promise.all([svcA, svcB].map(async (s) => (await replicas[0]!.get('default', s))!));
      expect(kept.map((c) => c.value)).toEqual(['value-a', 'value-b']);
      expect(kept.every((c) => c.origin === 'http://replica-0.test' || c.origin === 'http://replica-1.test')).toBe(true);
      // A later run finds nothing left to bind.
      expect(await replicas[1]!.bindUnbound(async () => 'http://late.test')).toBe(0);

      // A `secret set` landing between the bind's read and its write stays; the old value is not written back.
      const svcC = uniq('bind');
      await store.putSecret(v1(svcC, 'old-value'));
      const vault = new SecretVault(key, store);
      const boundC = await vault.bindUnbound(async (s) => {
        if (s === svcC) await vault.set('default', svcC, 'new-value', 'http://set.test');
        return 'http://bind.test';
      });
      expect(await vault.get('default', svcC)).toEqual({ value: 'new-value', origin: 'http://set.test' });
      expect(boundC).toBe(0);
    });

    it('publishes a version and its first token atomically', async () => {
      const name = uniq('app');
      const v1 = version(name, '1.0.0');
      const t1 = token(name);
      await store.publishVersion('sdk', v1, t1);
      expect(await store.getVersion('sdk', v1.versionId)).toEqual(v1);
      expect(await store.getTokenByHash(t1.hash)).toEqual(t1);
      const v2 = version(name, '1.1.0', { operations: ['demo-crm.contacts/get', 'demo-crm.deals/list'] });
      // Derived from a history that moved on: refused; from the newest version: accepted.
      await expect(store.publishVersion('sdk', version(name, '9.9.9'), null, null)).rejects.toBeInstanceOf(StoreConflictError);
      await expect(store.publishVersion('sdk', version(name, '9.9.8'), null, 'ver_00000000000000000000000000')).rejects.toBeInstanceOf(StoreConflictError);
      await store.publishVersion('sdk', v2, null, v1.versionId);
      expect((await store.listVersions('sdk', name)).map((v) => v.version)).toEqual(['1.1.0', '1.0.0']);
      expect((await store.listLatestVersions('sdk')).find((v) => v.name === name)).toEqual(v2);
    });

    it('rejects a duplicate label without leaving a partial write', async () => {
      const name = uniq('dup');
      await store.publishVersion('sdk', version(name, '1.0.0'), token(name));
      const dupToken = token(name);
      await expect(store.publishVersion('sdk', version(name, '1.0.0'), dupToken)).rejects.toBeInstanceOf(StoreConflictError);
      expect(await store.getTokenByHash(dupToken.hash)).toBeNull();
      expect(await store.listVersions('sdk', name)).toHaveLength(1);
    });

    it('rolls the version back when the token write fails', async () => {
      const name = uniq('atomic');
      const first = token(name);
      await store.insertToken(first);
      const v = version(name, '1.0.0');
      await expect(store.publishVersion('sdk', v, { ...token(name), hash: first.hash })).rejects.toThrow();
      expect(await store.getVersion('sdk', v.versionId)).toBeNull();
    });

    it('stores tokens with allowlists and bindings, revokes once and records last use', async () => {
      const subject = uniq('mcp');
      const t = token(subject, { kind: 'mcp', allow: ['github.issues/*'], binding: { endUserRef: 'u1' }, expiresAt: '2030-01-01T00:00:00.000Z' });
      await store.insertToken(t);
      expect(await store.listTokens('mcp', subject)).toEqual([t]);
      await store.touchToken(t.id, '2026-05-05T00:00:00.000Z');
      expect((await store.getTokenByHash(t.hash))!.lastUsedAt).toBe('2026-05-05T00:00:00.000Z');
      expect(await store.revokeToken(t.id, '2026-05-06T00:00:00.000Z', ['cli', 'sdk'])).toBe(false); // not of those kinds
      expect((await store.getTokenByHash(t.hash))!.revokedAt).toBeNull();
      expect(await store.revokeToken(t.id, '2026-05-06T00:00:00.000Z', ['sdk', 'mcp'])).toBe(true);
      expect(await store.revokeToken(t.id, '2026-05-07T00:00:00.000Z')).toBe(false);
      expect((await store.getTokenByHash(t.hash))!.revokedAt).toBe('2026-05-06T00:00:00.000Z');
    });

    it('claims an idempotency key once, reports its state, and forgets it after the TTL', async () => {
      const scope = uniq('ver');
      const at = (ms: number) => new Date(1_800_000_000_000 + ms).toISOString();
      const claim = { scope, key: 'k1', requestHash: 'h1', createdAt: at(0), ttlMs: 1000 };
      expect(await store.claimIdempotencyKey(claim)).toEqual({ state: 'claimed' });
      expect(await store.claimIdempotencyKey({ ...claim, createdAt: at(10) })).toEqual({ state: 'pending', requestHash: 'h1', result: null, createdAt: at(0) });
      await store.completeIdempotencyKey(scope, 'k1', '{"ok":true}');
      expect(await store.claimIdempotencyKey({ ...claim, requestHash: 'h2', createdAt: at(20) })).toEqual({ state: 'done', requestHash: 'h1', result: '{"ok":true}', createdAt: at(0) });
      expect(await store.claimIdempotencyKey({ ...claim, requestHash: 'h2', createdAt: at(2000) })).toEqual({ state: 'claimed' });
      await store.releaseIdempotencyKey(scope, 'k1');
      expect(await store.claimIdempotencyKey({ ...claim, createdAt: at(2001) })).toEqual({ state: 'claimed' });
      expect(await store.claimIdempotencyKey({ ...claim, scope: uniq('other'), createdAt: at(2002) })).toEqual({ state: 'claimed' });
    });

    it('fences connection token writes by generation: of refreshes that read one generation, exactly one writes', async () => {
      const endUserRef = uniq('user');
      const sealed = (c: string) => ({ ciphertext: c, nonce: 'n', tag: 't' });
      const row: ConnectionRow = {
        id: `con_${uniq('c')}`,
        service: 'demo-crm',
        endUserRef,
        authName: 'default',
        tokens: sealed('consent'),
        status: 'active',
        accessExpiresAt: '2026-01-01T01:00:00.000Z',
        generation: 0,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        consentedAt: '2026-01-01T00:00:00.000Z',
      };
      await store.putConnection(row);
      const read = (await store.getConnection('demo-crm', endUserRef, 'default'))!;
      expect(read).toEqual(row);
      const write = (c: string, status: ConnectionRow['status'] = 'active') => ({ tokens: sealed(c), status, accessExpiresAt: '2026-01-01T02:00:00.000Z', updatedAt: '2026-01-01T00:30:00.000Z' });

      // Concurrent writers that all read generation 0: exactly one wins and bumps it.
      const won = await Promise.all(['r0', 'r1', 'r2', 'r3', 'r4'].map((c) => store.updateConnectionTokens(row.id, read.generation, write(c))));
      expect(won.filter(Boolean)).toHaveLength(1);
      const winner = ['r0', 'r1', 'r2', 'r3', 'r4'][won.indexOf(true)]!;
      const after = (await store.getConnection('demo-crm', endUserRef, 'default'))!;
      expect(after).toMatchObject({ generation: 1, tokens: sealed(winner), status: 'active', accessExpiresAt: '2026-01-01T02:00:00.000Z' });

      // A late writer still holding generation 0 can neither overwrite nor mark it needs_reauth.
      expect(await store.updateConnectionTokens(row.id, 0, write('late', 'needs_reauth'))).toBe(false);
      expect(await store.getConnection('demo-crm', endUserRef, 'default')).toEqual(after);
      // The next refresh, from the generation it read, does.
      expect(await store.updateConnectionTokens(row.id, 1, write('next'))).toBe(true);
      // A refresh (or marking needs_reauth) writes updatedAt, never when the consent completed.
      expect(await store.getConnection('demo-crm', endUserRef, 'default')).toMatchObject({ generation: 2, updatedAt: '2026-01-01T00:30:00.000Z', consentedAt: row.consentedAt });
      // A new consent replaces the tokens and its time in place (same ID and creation time) under a newer generation.
      await store.putConnection({ ...row, id: 'con_ignored', tokens: sealed('again'), createdAt: '2027-01-01T00:00:00.000Z', updatedAt: '2027-01-01T00:00:00.000Z', consentedAt: '2027-01-01T00:00:00.000Z' });
      expect(await store.getConnection('demo-crm', endUserRef, 'default')).toMatchObject({
        id: row.id,
        generation: 3,
        tokens: sealed('again'),
        createdAt: row.createdAt,
        updatedAt: '2027-01-01T00:00:00.000Z',
        consentedAt: '2027-01-01T00:00:00.000Z',
      });
      expect(await store.updateConnectionTokens(row.id, 2, write('stale'))).toBe(false);
      // Listed and deleted rows carry it too.
      expect((await store.listConnections('demo-crm')).find((c) => c.id === row.id)?.consentedAt).toBe('2027-01-01T00:00:00.000Z');
      expect((await store.deleteConnection(row.id))?.consentedAt).toBe('2027-01-01T00:00:00.000Z');
    });

    it('deletes a connection by ID: a refresh that read it writes nothing, and a new consent starts afresh', async () => {
      const endUserRef = uniq('user');
      const row: ConnectionRow = {
        id: `con_${uniq('d')}`,
        service: 'demo-crm',
        endUserRef,
        authName: 'default',
        tokens: { ciphertext: 'c', nonce: 'n', tag: 't' },
        status: 'active',
        accessExpiresAt: null,
        generation: 0,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        consentedAt: '2026-01-01T00:00:00.000Z',
      };
      await store.putConnection(row);
      expect(await store.deleteConnection('con_nope')).toBeNull();
      expect(await store.deleteConnection(row.id)).toMatchObject({ id: row.id, service: 'demo-crm', endUserRef, authName: 'default' });
      expect(await store.getConnection('demo-crm', endUserRef, 'default')).toBeNull();
      expect(await store.deleteConnection(row.id)).toBeNull();
      expect(await store.updateConnectionTokens(row.id, 0, { tokens: row.tokens, status: 'active', accessExpiresAt: null, updatedAt: row.updatedAt })).toBe(false);
      await store.putConnection({ ...row, id: `${row.id}x` });
      expect(await store.getConnection('demo-crm', endUserRef, 'default')).toMatchObject({ id: `${row.id}x`, generation: 0 });
    });

    it('revokes every unused sign-in code of a subject, and only those', async () => {
      const at = new Date().toISOString();
      const later = new Date(Date.now() + 3_600_000).toISOString();
      for (const [hash, subject] of [['h-a1', 'alice'], ['h-a2', 'alice'], ['h-b1', 'bob']] as const) {
        await store.insertSigninCode({ hash: uniq(hash), subject, createdAt: at, expiresAt: later, usedAt: null });
      }
      expect(await store.revokeSigninCodes('alice', at)).toBe(2);
      expect(await store.revokeSigninCodes('alice', at)).toBe(0);
      expect(await store.revokeSigninCodes('bob', at)).toBe(1);
    });

    it('deletes sign-in codes, device codes and consent states that expired before a time, and nothing else', async () => {
      const long = '2020-01-01T00:00:00.000Z';
      const cut = '2026-01-01T00:00:00.000Z';
      const live = '2099-01-01T00:00:00.000Z';
      for (const [suffix, expiresAt] of [['old', long], ['live', live]] as const) {
        await store.insertSigninCode({ hash: uniq(`sc-${suffix}`), subject: 'owner', createdAt: long, expiresAt, usedAt: null });
        await store.insertDeviceCode({ hash: uniq(`dc-${suffix}`), userCode: uniq(suffix).slice(-9), clientId: 'svc-cli', status: 'pending', subject: null, createdAt: long, expiresAt, lastPolledAt: null, requestedFrom: null, requestedAgent: null, credentialTtlSeconds: null });
        await store.insertOAuthState({ hash: uniq(`os-${suffix}`), service: 'demo-crm', endUserRef: 'u', authName: 'default', verifier: { ciphertext: 'x', nonce: 'y', tag: 'z' }, createdAt: long, expiresAt });
      }
      expect(await store.deleteExpired(cut)).toBe(3);
      expect(await store.deleteExpired(cut)).toBe(0);
      expect(await store.deleteExpired('2100-01-01T00:00:00.000Z')).toBe(3);
    });

    it('records device-code polls so that of two at once only one is on time (RFC 8628 slow_down)', async () => {
      const hash = uniq('dc-poll');
      await store.insertDeviceCode({ hash, userCode: uniq('poll').slice(-9), clientId: 'svc-cli', status: 'pending', subject: null, createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2099-01-01T00:00:00.000Z', lastPolledAt: null, requestedFrom: null, requestedAgent: null, credentialTtlSeconds: null });
      // Eight polls at 00:01:00, the interval 5 s: the first one (no poll before) is on time, the others too soon.
      const first = await Promise.all(Array.from({ length: 8 }, () => store.touchDeviceCode(hash, '2026-01-01T00:01:00.000Z', '2026-01-01T00:00:55.000Z')));
      expect(first.filter(Boolean)).toHaveLength(1);
      // 3 s later: too soon, and the clock restarts from this poll.
      expect(await store.touchDeviceCode(hash, '2026-01-01T00:01:03.000Z', '2026-01-01T00:00:58.000Z')).toBe(false);
      expect(await store.touchDeviceCode(hash, '2026-01-01T00:01:07.000Z', '2026-01-01T00:01:02.000Z')).toBe(false);
      expect(await store.touchDeviceCode(hash, '2026-01-01T00:01:12.000Z', '2026-01-01T00:01:07.000Z')).toBe(true);
      expect((await store.getDeviceCode(hash))?.lastPolledAt).toBe('2026-01-01T00:01:12.000Z');
      // A replica whose clock is behind: too soon, and the last poll does not move backwards.
      expect(await store.touchDeviceCode(hash, '2026-01-01T00:01:10.000Z', '2026-01-01T00:01:05.000Z')).toBe(false);
      expect((await store.getDeviceCode(hash))?.lastPolledAt).toBe('2026-01-01T00:01:12.000Z');
    });

    it('keeps who started a device code and the credential lifetime asked for it', async () => {
      const hash = uniq('dc-who');
      const base = { userCode: uniq('who').slice(-9), clientId: 'svc-cli', status: 'pending' as const, subject: null, createdAt: '2026-01-01T00:00:00.000Z', expiresAt: '2099-01-01T00:00:00.000Z', lastPolledAt: null };
      await store.insertDeviceCode({ hash, ...base, requestedFrom: '203.0.113.7', requestedAgent: 'svc-cli/0.1.0 (linux x64)', credentialTtlSeconds: 86_400 });
      expect(await store.getDeviceCode(hash)).toMatchObject({ requestedFrom: '203.0.113.7', requestedAgent: 'svc-cli/0.1.0 (linux x64)', credentialTtlSeconds: 86_400 });
      const bare = uniq('dc-bare');
      await store.insertDeviceCode({ hash: bare, ...base, userCode: uniq('bare').slice(-9), requestedFrom: null, requestedAgent: null, credentialTtlSeconds: null });
      expect(await store.getDeviceCode(bare)).toMatchObject({ requestedFrom: null, requestedAgent: null, credentialTtlSeconds: null });
    });

    it('lists the tokens of a kind across every subject, or of one subject', async () => {
      const mine = [uniq('cli-a'), uniq('cli-b')];
      for (const subject of mine) await store.insertToken(token(subject, { kind: 'cli' }));
      const all = (await store.listTokens('cli')).map((t) => t.subject);
      expect(all).toEqual(expect.arrayContaining(mine));
      expect((await store.listTokens('cli', mine[0])).map((t) => t.subject)).toEqual([mine[0]]);
      expect((await store.listTokens('mcp')).some((t) => mine.includes(t.subject))).toBe(false);
    });

    it('records a one-time job once: the first value stays', async () => {
      expect(await store.getMarker('job')).toBeNull();
      await store.setMarker('job', 'first');
      await store.setMarker('job', 'second');
      expect(await store.getMarker('job')).toBe('first');
      expect(await store.getMarker('other-job')).toBeNull();
    });

    it('lists receipts of a version newest first, bounded by limit', async () => {
      const versionId = `ver_${uniq('r')}`;
      const rows: ReceiptRow[] = [1, 2, 3].map((i) => ({
        id: `rcp_${String(i).padStart(26, '0')}_${versionId}`,
        versionId,
        operation: 'demo-crm.contacts/get',
        surface: 'rest',
        tokenId: null,
        startedAt: new Date(1_800_000_000_000 + i).toISOString(),
        providerDurationMs: 1.5,
        pages: 1,
        status: 200,
        ok: i !== 2,
        bytes: 10 * i,
        sha256: i === 2 ? null : 'ab'.repeat(32),
        errorCode: i === 2 ? 'PROVIDER_ERROR' : null,
      }));
      await store.insertReceipts(rows);
      const listed = await store.listReceipts(versionId, 2);
      expect(listed).toEqual([rows[2], rows[1]]);
      // `before` pages on: only older receipts, newest first.
      expect(await store.listReceipts(versionId, 2, rows[2]!.id)).toEqual([rows[1], rows[0]]);
      expect(await store.listReceipts(versionId, 2, rows[0]!.id)).toEqual([]);
    });

    it('keeps a receipt’s trace ID and finds one trace’s receipts among a bounded window of a version’s newest, newest first', async () => {
      const versionId = `ver_${uniq('t')}`;
      const other = `ver_${uniq('t')}`;
      const [traceA, traceB] = ['a'.repeat(32), 'b'.repeat(32)];
      const row = (i: number, version: string, traceId?: string): ReceiptRow => ({ ...receiptAt(version, 1_800_000_000_000 + i, i), ...(traceId ? { traceId } : {}) });
      const rows = [row(1, versionId, traceA), row(2, versionId, traceB), row(3, versionId, traceA), row(4, versionId), row(5, other, traceA)];
      await store.insertReceipts(rows);
      // Kept as written: a trace ID where there was one, none (not null) elsewhere.
      expect(await store.listReceipts(versionId, 10)).toEqual([rows[3], rows[2], rows[1], rows[0]]);
      // A search of the whole version (a window larger than it): the trace's, newest first, and nowhere further to search.
      expect(await store.listTraceReceipts(versionId, traceA, 10, 100)).toEqual({ rows: [rows[2], rows[0]], scannedTo: null });
      expect(await store.listTraceReceipts(versionId, traceA, 1, 100)).toEqual({ rows: [rows[2]], scannedTo: null });
      expect(await store.listTraceReceipts(versionId, traceA, 10, 100, rows[2]!.id)).toEqual({ rows: [rows[0]], scannedTo: null });
      expect(await store.listTraceReceipts(versionId, 'c'.repeat(32), 10, 100)).toEqual({ rows: [], scannedTo: null });
      expect(await store.listTraceReceipts(other, traceA, 10, 100)).toEqual({ rows: [rows[4]], scannedTo: null });
      // A window of two receipts (4 and 3): only the trace's among them, and where the search goes on.
      expect(await store.listTraceReceipts(versionId, traceA, 10, 2)).toEqual({ rows: [rows[2]], scannedTo: rows[2]!.id });
      expect(await store.listTraceReceipts(versionId, traceA, 10, 2, rows[2]!.id)).toEqual({ rows: [rows[0]], scannedTo: rows[0]!.id });
      expect(await store.listTraceReceipts(versionId, traceA, 10, 2, rows[0]!.id)).toEqual({ rows: [], scannedTo: null });
    });

    it('prunes receipts minted before a time, oldest first and at most limit at a time, across SDK and MCP versions', async () => {
      const sdk = version(uniq('prune-sdk'), '1.0.0');
      const mcp = version(uniq('prune-mcp'), '1.0.0');
      await store.publishVersion('sdk', sdk, null);
      await store.publishVersion('mcp', mcp, null);
      const day = 24 * 3600 * 1000;
      const now = Date.parse('2026-11-23T12:00:00.000Z');
      const receipt = receiptAt;
      // Per version: 3 receipts 40 days old, 1 minted exactly at the cut-off, 2 from today.
      const rows = [sdk, mcp].flatMap((v, k) => [
        ...[0, 1, 2].map((i) => receipt(v.versionId, now - 40 * day + i, 10 * k + i)),
        receipt(v.versionId, now - 30 * day, 10 * k + 3),
        ...[4, 5].map((i) => receipt(v.versionId, now - i, 10 * k + i)),
      ]);
      await store.insertReceipts(rows);
      const before = receiptIdAt(now - 30 * day);
      expect(await store.pruneReceipts(before, 4)).toBe(4);
      expect(await store.pruneReceipts(before, 4)).toBe(2);
      expect(await store.pruneReceipts(before, 4)).toBe(0);
      for (const v of [sdk, mcp]) {
        const left = await store.listReceipts(v.versionId, 100);
        expect(left.map((r) => r.startedAt)).toEqual([now - 4, now - 5, now - 30 * day].map((t) => new Date(t).toISOString()));
      }
    });
  });
}
