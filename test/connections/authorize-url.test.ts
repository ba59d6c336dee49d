// The consent URL keeps what the provider's authorization URL already carries (an `audience`, a
// `prompt`), adding the Engine's own parameters beside it. The Engine's real components (SQLite
// store, catalog, workspace, vault, connections) over a catalog whose OAuth URL holds a query.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Catalog, type ServiceIndex } from '../../src/catalog/index.ts';
import { Connections } from '../../src/connections/index.ts';
import { SecretVault } from '../../src/credentials/index.ts';
import { createLogger } from '../../src/log/index.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { Workspace } from '../../src/workspace/index.ts';

let dir: string;
let store: Store;
let connections: Connections;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-authorize-url-'));
  const catalogDir = join(dir, 'generated', 'catalog');
  mkdirSync(catalogDir, { recursive: true });
  const index: ServiceIndex = {
    service: 'aud',
    version: 'v1',
    title: 'Audience',
    baseUrl: 'https://api.example.test',
    auth: [{ name: 'oauth', type: 'oauth2', authorizationUrl: 'https://login.example.test/authorize?audience=api&prompt=consent', tokenUrl: '/token', scopes: ['read'] }],
    headers: {},
    schemas: {},
    operations: [],
  };
  writeFileSync(join(catalogDir, 'aud@v1.json'), JSON.stringify(index));
  writeFileSync(join(catalogDir, 'manifest.json'), JSON.stringify([{ service: 'aud', version: 'v1', title: 'Audience', baseUrl: index.baseUrl, operations: 0, file: 'catalog/aud@v1.json' }]));
  store = await openStore({ dataDir: join(dir, 'data') });
  const catalog = await Catalog.load(store, catalogDir);
  const workspace = new Workspace(store, catalog);
  const vault = new SecretVault(randomBytes(32), store);
  connections = new Connections({ store, vault, catalog, workspace, log: createLogger('silent'), callbackUrl: () => 'http://127.0.0.1:8700/v1/oauth/callback' });
  await workspace.enable('aud', 'v1');
  await connections.setClient('aud', { clientId: 'client-1', clientSecret: 'authorize-url-client-secret' });
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("keeps the authorization URL's own query parameters beside the Engine's", async () => {
  const { authorizeUrl } = await connections.start('aud', 'u_1');
  const url = new URL(authorizeUrl);
  expect(url.origin + url.pathname).toBe('https://login.example.test/authorize');
  expect(url.searchParams.get('audience')).toBe('api');
  expect(url.searchParams.get('prompt')).toBe('consent');
  expect(Object.fromEntries([...url.searchParams].filter(([k]) => !['state', 'code_challenge'].includes(k)))).toEqual({
    audience: 'api',
    prompt: 'consent',
    response_type: 'code',
    client_id: 'client-1',
    redirect_uri: 'http://127.0.0.1:8700/v1/oauth/callback',
    scope: 'read',
    code_challenge_method: 'S256',
  });
  expect(authorizeUrl).not.toContain('authorize-url-client-secret');
});
