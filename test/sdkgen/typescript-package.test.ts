// The TypeScript package end to end: publish an SDK, download its npm tarball, install it into a
// fresh project offline, type-check programs against its .d.ts with tsc (a wrong input type
// fails), run one against the Engine's gRPC port calling a fake provider, and resolve every
// TypeScript path the README shows on the client object. The Engine traces (a receiver on loopback),
// so a receipt shows the trace a call continued: the one given, or the caller's OpenTelemetry context.
import { randomBytes } from 'node:crypto';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../fixtures/otlp-receiver.ts';
import type { FakeProvider } from '../fixtures/fake-provider.ts';
import { REPO, download, expectJoinedTraces, expectKeyedCreates, publishApp, publishImported, startCrmProvider, installTypescript, runNode, typecheck, workdir, type Downloaded, type Workdir } from '../fixtures/sdk-packages.ts';

const SECRET = 'canary-sdkts-0b6e2f9d41';

let t: TestEngine;
let receiver: OtlpReceiver;
let provider: FakeProvider;
let work: Workdir;
let project: string;
let published: { versionId: string; token: string; version: string };
let tarball: Downloaded;
let readme: string;

beforeAll(async () => {
  provider = await startCrmProvider(SECRET);
  receiver = await startOtlpReceiver();
  t = await startTestEngine({ SVC_GRPC_PORT: '0', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50' });
  published = await publishApp(t, 'shop', provider.url, SECRET, ['demo-crm=*', 'github=issues/*', 'unified=tasks.create']);
  work = workdir('svc-sdkts-');
  tarball = await download(t, 'shop', published.version, 'typescript');
  readme = (await download(t, 'shop', published.version, 'readme')).bytes.toString('utf8');
  project = await installTypescript(work.dir, tarball);
}, 180_000);

afterAll(async () => {
  work?.cleanup();
  await t?.stop();
  await provider?.stop();
  await receiver?.stop();
});

const program = (body: string) => `import { Client, type Envelope, type DemoCrmTypes } from '@svc-sdk/shop';

const client = new Client({ grpcUrl: process.env.SVC_GRPC_URL!, token: process.env.SVC_EXECUTION_TOKEN! });
${body}
client.close();
`;

describe('TypeScript package', () => {
  it('is an npm tarball named after the SDK, with ESM, .d.ts files and the gRPC runtime dependency', () => {
    expect(tarball.filename).toBe(`svc-sdk-shop-${published.version}.tgz`);
    expect(tarball.bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it('ships .d.ts files that type-check on their own', async () => {
    const declarations = await typecheck(project, ['node_modules/@svc-sdk/shop/index.d.ts'], { declarations: true });
    expect(declarations.output).toBe('');
    expect(declarations.ok).toBe(true);
  }, 90_000);

  it('types the data of an operation that answers no body (GitHub issues/unlock: 204) as null', async () => {
    writeFileSync(
      join(project, 'nobody.ts'),
      `import { type Envelope, type GithubTypes } from '@svc-sdk/shop';
declare const answer: Envelope<GithubTypes.IssuesUnlockOutput>;
const empty: null = answer.data;
void empty;
`,
    );
    writeFileSync(
      join(project, 'nobody-wrong.ts'),
      `import { type GithubTypes } from '@svc-sdk/shop';
const data: GithubTypes.IssuesUnlockOutput = { number: 1 };
void data;
`,
    );
    const good = await typecheck(project, ['nobody.ts']);
    expect(good.output).toBe('');
    // Before: { [k: string]: unknown }, which any object satisfied.
    const wrong = await typecheck(project, ['nobody-wrong.ts']);
    expect(wrong.ok).toBe(false);
    expect(wrong.output).toContain("is not assignable to type 'null'");
  }, 90_000);

  it('type-checks a correct program and refuses a wrong input type', async () => {
    writeFileSync(
      join(project, 'good.ts'),
      program(`
const one: Envelope<DemoCrmTypes.ContactsGetOutput> = await client.DemoCrm.contacts.get({ contact_id: 'con_1' });
if (one.ok) { const email: string = one.data.email; void email; } else { const code: string = one.error.code; void code; }
const page = await client.DemoCrm.contacts.list({ limit: 1 }, { pagination: { maxPages: 2 } });
void page;
const issue = await client.Github.issues.create({ owner: 'o', repo: 'r', body: { title: 'Bug' } });
if (issue.ok) { const n: number = issue.data.number; void n; }
const task = await client.Unified.tasks.create({ input: { title: 'Call Ada' }, targets: ['crm'], selectors: { crm: { authType: 'api_key' } } }, { timeoutMs: 5_000 });
if (task.ok) { const p: 'github' | 'crm' | 'gitlab' | 'asana' | 'jira' = task.data.output.tasks[0]!.provider; const s: string = task.data.steps[0]!.status; void p; void s; }
`),
    );
    writeFileSync(join(project, 'wrong.ts'), program(`await client.DemoCrm.contacts.get({ contact_id: 42 });`));
    writeFileSync(join(project, 'unpaged.ts'), program(`await client.DemoCrm.contacts.get({ contact_id: 'con_1' }, { pagination: { maxPages: 2 } });`));
    writeFileSync(join(project, 'target.ts'), program(`await client.Unified.tasks.create({ input: { title: 'x' }, targets: ['jira'] });`));
    // A Unified call's selectors are keyed by target in its input; flat ones in the options are refused by the Engine, so they do not type-check.
    writeFileSync(join(project, 'flat.ts'), program(`await client.Unified.tasks.create({ input: { title: 'x' }, targets: ['crm'] }, { selectors: { endUserRef: 'u1' } });`));
    // One tsc run: the correct program has no error; each wrong one has exactly the expected one.
    const result = await typecheck(project, ['good.ts', 'wrong.ts', 'unpaged.ts', 'target.ts', 'flat.ts']);
    expect(result.ok).toBe(false);
    const errors = result.output.split('\n').filter((l) => /error TS\d+/.test(l));
    expect(errors.filter((l) => l.startsWith('good.ts'))).toEqual([]);
    expect(errors.filter((l) => l.startsWith('wrong.ts'))).toEqual([expect.stringMatching(/error TS2322: Type 'number' is not assignable to type 'string'/)]);
    expect(errors.filter((l) => l.startsWith('unpaged.ts'))).toEqual([expect.stringMatching(/error TS2353: .*'pagination' does not exist in type 'CallOptions'/)]);
    expect(errors.filter((l) => l.startsWith('target.ts'))).toEqual([expect.stringMatching(/error TS2322: Type '"jira"' is not assignable to type '"github" \| "crm"'/)]);
    expect(errors.filter((l) => l.startsWith('flat.ts'))).toEqual([expect.stringMatching(/error TS2353: .*'selectors' does not exist in type 'UnifiedCallOptions'/)]);
  }, 90_000);

  it('calls the Engine over gRPC and returns envelopes, with pagination as an option', async () => {
    writeFileSync(
      join(project, 'call.ts'),
      program(`
const got = await client.DemoCrm.contacts.get({ contact_id: 'con_7' });
const paged = await client.DemoCrm.contacts.list({}, { pagination: { maxPages: 2 } });
const all = await client.DemoCrm.contacts.list();
const invalid = await client.DemoCrm.contacts.get({ contact_id: 'nope' });
const task = await client.Unified.tasks.create({ input: { title: 'Call Ada' }, targets: ['crm'] });
console.log(JSON.stringify({ got, paged, all, invalid, task }));
`),
    );
    const out = (await runNode(project, 'call.ts', { SVC_GRPC_URL: t.engine.grpcUrl, SVC_EXECUTION_TOKEN: published.token })) as Record<string, any>;
    expect(out.got).toEqual({ ok: true, status: 200, data: { id: 'con_7', name: 'Ada', email: 'ada@example.test', labels: { tier: 'gold' }, created_at: '2026-01-01T00:00:00Z' }, error: null });
    expect(out.paged).toMatchObject({ ok: true, data: { data: [{ id: 'con_1' }, { id: 'con_2' }], has_more: true } });
    expect(out.all.data.data.map((c: { id: string }) => c.id)).toEqual(['con_1', 'con_2', 'con_3']);
    expect(out.invalid).toMatchObject({ ok: false, status: 400, data: null, error: { code: 'ENGINE_INVALID_INPUT' } });
    expect(out.task).toMatchObject({ ok: true, data: { output: { tasks: [{ provider: 'crm', id: 'tsk_1', url: null }] }, steps: [{ target: 'crm', status: 'succeeded' }] } });
    const receipts = (await t.api('GET', `/v1/versions/${published.versionId}/receipts?limit=50`)).body.receipts as { surface: string }[];
    expect(receipts.length).toBeGreaterThanOrEqual(4);
    expect(receipts.every((r) => r.surface === 'grpc')).toBe(true);
  }, 30_000);

  it('sends an idempotency key: a repeated create answers the first result and reaches the provider once', async () => {
    const posts = () => provider.requests.filter((r) => r.method === 'POST' && r.url === '/v1/contacts').length;
    const before = posts();
    writeFileSync(
      join(project, 'keyed.ts'),
      program(`
const body = { name: 'Grace', email: 'grace@example.test' };
const first = await client.DemoCrm.contacts.create({ body }, { idempotencyKey: 'ts-create-1' });
const again = await client.DemoCrm.contacts.create({ body }, { idempotencyKey: 'ts-create-1' });
const changed = await client.DemoCrm.contacts.create({ body: { ...body, name: 'Ada' } }, { idempotencyKey: 'ts-create-1' });
const spaced = await client.call('demo-crm.contacts/create', { body }, { idempotencyKey: 'has a space' });
console.log(JSON.stringify({ first, again, changed, spaced }));
`),
    );
    const out = (await runNode(project, 'keyed.ts', { SVC_GRPC_URL: t.engine.grpcUrl, SVC_EXECUTION_TOKEN: published.token })) as Record<string, any>;
    expectKeyedCreates(out, posts() - before);
  }, 30_000);

  it('turns transport failures into TRANSPORT_UNAVAILABLE envelopes without throwing', async () => {
    writeFileSync(
      join(project, 'down.ts'),
      `import { Client } from '@svc-sdk/shop';
const client = new Client({ grpcUrl: 'grpc://127.0.0.1:1', token: 'svc_sdk_x', timeoutMs: 2000 });
const env = await client.DemoCrm.contacts.get({ contact_id: 'con_1' });
client.close();
console.log(JSON.stringify(env));
`,
    );
    const env = (await runNode(project, 'down.ts', {})) as Record<string, any>;
    expect(env).toMatchObject({ ok: false, status: 503, data: null, error: { code: 'TRANSPORT_UNAVAILABLE', retryable: true, details: { grpc_status: 'UNAVAILABLE' } } });
  }, 30_000);

  it('refuses a token it cannot send (a trailing newline from a file) when the client is made, without echoing it', async () => {
    writeFileSync(
      join(project, 'newline.ts'),
      `import { Client } from '@svc-sdk/shop';
let message = 'accepted';
try {
  new Client({ grpcUrl: '127.0.0.1:1', token: process.env.SVC_EXECUTION_TOKEN + '\\n' });
} catch (err) {
  message = (err as Error).message;
}
console.log(JSON.stringify({ message }));
`,
    );
    const out = (await runNode(project, 'newline.ts', { SVC_EXECUTION_TOKEN: published.token })) as { message: string };
    expect(out.message).toMatch(/token must be the SDK execution token/);
    expect(out.message).not.toContain(published.token.slice(8));
  }, 30_000);

  it('continues the caller’s trace: a traceparent given, else the active OpenTelemetry context of an app that has the API', async () => {
    const hex = (bytes: number) => randomBytes(bytes).toString('hex');
    const [given, active] = [hex(16), hex(16)];
    // The optional peer dependency, as an app that traces has it installed (this repository's copy: no network).
    cpSync(join(REPO, 'node_modules/@opentelemetry/api'), join(project, 'node_modules/@opentelemetry/api'), { recursive: true });
    writeFileSync(
      join(project, 'trace.ts'),
      program(`const given = await client.DemoCrm.contacts.get({ contact_id: 'con_7' }, { traceparent: '00-${given}-${hex(8)}-01', tracestate: 'shop=1' });
const badParent = await client.DemoCrm.contacts.get({ contact_id: 'con_7' }, { traceparent: '00-${'0'.repeat(32)}-${hex(8)}-01' });
const badState = await client.DemoCrm.contacts.get({ contact_id: 'con_7' }, { tracestate: 'shop=1' });
const none = await client.DemoCrm.contacts.get({ contact_id: 'con_7' });
// The app registers a propagator (its OpenTelemetry SDK would): the package sends what it writes.
const { propagation } = await import('@opentelemetry/api');
propagation.setGlobalPropagator({ inject: (_context: unknown, carrier: any, setter: any) => setter.set(carrier, 'traceparent', '00-${active}-${hex(8)}-01'), extract: (context: any) => context, fields: () => ['traceparent'] });
const auto = await client.DemoCrm.contacts.get({ contact_id: 'con_7' });
console.log(JSON.stringify({ given, badParent, badState, none, auto }));`),
    );
    const out = (await runNode(project, 'trace.ts', { SVC_GRPC_URL: t.engine.grpcUrl, SVC_EXECUTION_TOKEN: published.token })) as Record<string, any>;
    for (const ok of ['given', 'none', 'auto']) expect(out[ok], ok).toMatchObject({ ok: true, status: 200 });
    expect(out.badParent).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'traceparent', provider_execution: 'not_started' } } });
    expect(out.badState).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'tracestate' } } });
    await expectJoinedTraces(t, published.versionId, provider, given, active);
  }, 90_000);

  it('answers options it cannot send, and calls after close, with envelopes instead of throwing', async () => {
    writeFileSync(
      join(project, 'edges.ts'),
      program(`const answers: Record<string, unknown> = {
  nullOptions: await client.DemoCrm.contacts.get({ contact_id: 'con_7' }, null as never),
  hugeBound: await client.DemoCrm.contacts.list({}, { pagination: { maxPages: 2 ** 31 } }),
};
client.close();
answers.afterClose = await client.DemoCrm.contacts.get({ contact_id: 'con_7' });
console.log(JSON.stringify(answers));`),
    );
    const out = (await runNode(project, 'edges.ts', { SVC_GRPC_URL: t.engine.grpcUrl, SVC_EXECUTION_TOKEN: published.token })) as Record<string, any>;
    expect(out.nullOptions).toMatchObject({ ok: true, status: 200 });
    expect(out.hugeBound).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_PAGINATION_INVALID' } });
    expect(out.afterClose).toMatchObject({ ok: false, status: 503, error: { code: 'TRANSPORT_UNAVAILABLE', details: { grpc_status: 'CANCELLED' } } });
  }, 30_000);

  it('resolves every TypeScript path of the README on the client object', async () => {
    const tablePaths = [...readme.matchAll(/^\| `(client\.[\w.]+)` \| `client\.[\w.]+` \| `([^`]+)` \|/gm)];
    expect(tablePaths.map((m) => m[2]).sort()).toEqual(
      (await t.api('GET', '/v1/sdks/shop/versions')).body.versions[0].operations,
    );
    const tsBlocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n');
    const shown = new Set([...tablePaths.map((m) => m[1]!), ...[...tsBlocks.matchAll(/\b(client\.[A-Z][\w]*(?:\.[\w]+)+)\(/g)].map((m) => m[1]!)]);
    writeFileSync(
      join(project, 'paths.ts'),
      `import { Client } from '@svc-sdk/shop';
const client = new Client({ grpcUrl: '127.0.0.1:1', token: 'svc_sdk_x' });
const paths: string[] = JSON.parse(process.env.PATHS!);
const missing = paths.filter((p) => typeof p.split('.').slice(1).reduce<any>((node, key) => node?.[key], client) !== 'function');
client.close();
console.log(JSON.stringify({ missing, checked: paths.length }));
`,
    );
    const result = (await runNode(project, 'paths.ts', { PATHS: JSON.stringify([...shown]) })) as { missing: string[]; checked: number };
    expect(result.missing).toEqual([]);
    expect(result.checked).toBeGreaterThan(published ? 50 : 0);
  }, 30_000);
});

describe('TypeScript package of provider names that are not identifiers', () => {
  it('declares and documents them so tsc accepts the .d.ts and every README path reaches a method', async () => {
    const operations: [string, string, string, string][] = [
      ['/verify', 'get', '3ds/verify', ''],
      ['/pets/{id}', 'get', 'getPet.v2', ''],
      ['/users', 'get', 'users:list', ''],
      ['/invoices', 'get', 'listInvoices', 'Billing & Invoices'],
      ['/pets', 'post', 'pets/new', ''],
    ];
    const paths = operations
      .map(([path, method, id, tag]) => `  ${path}:\n    ${method}:\n      operationId: '${id}'\n${tag ? `      tags: ['${tag}']\n` : ''}${path.includes('{id}') ? '      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]\n' : ''}      responses: { '200': { description: ok } }\n`)
      .join('');
    const document = `openapi: 3.0.3\ninfo: { title: Odd, version: '1' }\nservers: [{ url: '${provider.url}' }]\npaths:\n${paths}`;
    const res = { body: await publishImported(t, 'odd', document) };
    const oddWork = workdir('svc-sdkts-odd-');
    try {
      const oddTarball = await download(t, 'odd', res.body.version, 'typescript');
      const oddReadme = (await download(t, 'odd', res.body.version, 'readme')).bytes.toString('utf8');
      const oddProject = await installTypescript(oddWork.dir, oddTarball);
      const declarations = await typecheck(oddProject, ['node_modules/@svc-sdk/odd/index.d.ts'], { declarations: true });
      expect(declarations.output).toBe('');
      expect(declarations.ok).toBe(true);
      const shown = [...oddReadme.matchAll(/^\| `(client\.[^`]+)` \| `client\.[^`]+` \| `([^`]+)` \|/gm)].map((m) => m[1]!);
      expect(shown).toHaveLength(operations.length);
      // Every path is a TypeScript expression on a typed client, calling the method with its input.
      writeFileSync(
        join(oddProject, 'paths.ts'),
        `import { Client } from '@svc-sdk/odd';\nconst client = new Client({ grpcUrl: '127.0.0.1:1', token: 'svc_sdk_x' });\n` +
          shown.map((p, i) => `const f${i}: (...args: any[]) => Promise<unknown> = ${p};\n`).join('') +
          `console.log(JSON.stringify([${shown.map((_, i) => `typeof f${i}`).join(', ')}]));\nclient.close();\n`,
      );
      const checked = await typecheck(oddProject, ['paths.ts']);
      expect(checked.output).toBe('');
      expect(await runNode(oddProject, 'paths.ts', {})).toEqual(shown.map(() => 'function'));
    } finally {
      oddWork.cleanup();
    }
  }, 120_000);
});
