// Packages are reproducible: building the same version twice gives identical bytes — from the
// Engine's cache or rebuilt after a restart, by another builder instance, and in a process with
// another time zone — so a version stays downloadable later with the same content.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Packages, PACKAGE_KINDS } from '../../src/sdkgen/index.ts';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { download, REPO } from '../fixtures/sdk-packages.ts';

const run = promisify(execFile);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let t: TestEngine;
let label: string;

beforeAll(async () => {
  t = await startTestEngine({ SVC_GRPC_PORT: '0' });
  for (const service of ['demo-crm', 'github']) {
    expect((await t.api('PUT', `/v1/workspace/services/${service}`, { version: 'v1', baseUrl: 'http://127.0.0.1:9' })).status).toBe(200);
  }
  const res = await t.api('POST', '/v1/sdks/publish', { name: 'same', services: ['demo-crm=v1', 'github=v1'], operations: ['demo-crm=*', 'github=pulls/*'] });
  expect(res.status).toBe(200);
  t.canaries.push(res.body.token);
  label = res.body.version;
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

const downloadAll = async () => Object.fromEntries(await Promise.all(PACKAGE_KINDS.map(async (k) => [k, await download(t, 'same', label, k)] as const)));

describe('package determinism', () => {
  it('serves identical bytes on every download, before and after a restart, with their SHA-256', async () => {
    const first = await downloadAll();
    const second = await downloadAll();
    await t.restart();
    const third = await downloadAll();
    for (const kind of PACKAGE_KINDS) {
      expect(first[kind]!.bytes.length).toBeGreaterThan(0);
      expect(first[kind]!.sha256).toBe(sha256(first[kind]!.bytes));
      expect(second[kind]!.bytes.equals(first[kind]!.bytes)).toBe(true);
      expect(third[kind]!.bytes.equals(first[kind]!.bytes), `${kind} after a restart`).toBe(true);
    }
  }, 60_000);

  it('builds identical bytes twice with separate builders', async () => {
    const version = (await t.api('GET', '/v1/sdks/same/versions')).body.versions[0];
    const a = await new Packages({ catalog: t.engine.deps.catalog }).build(version);
    const b = await new Packages({ catalog: t.engine.deps.catalog }).build(version);
    for (const kind of PACKAGE_KINDS) expect(b[kind].bytes.equals(a[kind].bytes), kind).toBe(true);
    const served = await download(t, 'same', version.versionId, 'python-wheel');
    expect(served.bytes.equals(a['python-wheel'].bytes)).toBe(true);
  }, 60_000);

  it('builds identical bytes in another time zone', async () => {
    const version = (await t.api('GET', '/v1/sdks/same/versions')).body.versions[0];
    const script = `
import { Catalog } from './src/catalog/index.ts';
import { Packages } from './src/sdkgen/index.ts';
import { createHash } from 'node:crypto';
const catalog = await Catalog.load({ listImportedServices: async () => [] });
const built = await new Packages({ catalog }).build(JSON.parse(process.env.VERSION));
console.log(JSON.stringify(Object.fromEntries(Object.values(built).map((p) => [p.kind, createHash('sha256').update(p.bytes).digest('hex')]))));
`;
    const hashes = async (tz: string) =>
      JSON.parse((await run(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO, env: { ...process.env, TZ: tz, VERSION: JSON.stringify(version) }, timeout: 60_000 })).stdout);
    const [kiritimati, honolulu] = await Promise.all([hashes('Pacific/Kiritimati'), hashes('Pacific/Honolulu')]);
    expect(kiritimati).toEqual(honolulu);
    const local = await download(t, 'same', label, 'python-wheel');
    expect(kiritimati['python-wheel']).toBe(local.sha256);
  }, 90_000);
});
