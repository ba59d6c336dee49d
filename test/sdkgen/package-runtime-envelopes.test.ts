// The generated packages' runtimes, found by review: every outcome is an envelope, never an
// exception or a crashed process — deep JSON either way, far-future or infinite timeouts, a
// non-string operation, a signal that is not an AbortSignal.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { installBoth, runNode, runPython, type Workdir } from '../fixtures/sdk-packages.ts';

const SECRET = 'canary-review-grpc-7c41d2';
/** A provider body nested deeper than Python's default recursion limit (1000). */
const DEEP_BODY = `{"id":"con_deep","tree":${'['.repeat(3000)}${']'.repeat(3000)}}`;

let t: TestEngine;
let provider: FakeProvider;
let work: Workdir;
let project: string;
let python: string;
let sdk: { versionId: string; token: string };

beforeAll(async () => {
  provider = await startFakeProvider((req, res) => {
    const id = new URL(req.url, 'http://x').pathname.split('/')[3];
    if (id === 'con_deep') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(DEEP_BODY);
      return;
    }
    json(res, 200, { id });
  });
  t = await startTestEngine({ SVC_GRPC_PORT: '0' });
  sdk = await publishSdk(t, { name: 'revgrpc', service: 'demo-crm', baseUrl: provider.url, secret: SECRET, operations: ['contacts/get', 'contacts/list'] });
  ({ work, project, python } = await installBoth(t, 'revgrpc', '1.0.0', 'svc-review-grpc-'));
}, 180_000);

afterAll(async () => {
  work?.cleanup();
  await t?.stop();
  await provider?.stop();
});

const env = () => ({ SVC_GRPC_URL: t.engine.grpcUrl, SVC_EXECUTION_TOKEN: sdk.token });

/** Runs Python code that prints one JSON line; an exception escaping the package is reported as { raised }. */
const py = (body: string) =>
  runPython(
    python,
    `
import json, os, traceback
from svc_sdk_revgrpc import Client
client = Client(grpc_url=os.environ["SVC_GRPC_URL"], token=os.environ["SVC_EXECUTION_TOKEN"])
try:
${body
  .trim()
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}
    print(json.dumps(out.to_dict()))
except BaseException as err:
    print(json.dumps({"raised": type(err).__name__, "message": str(err)[:200]}))
`,
    env(),
  ) as Promise<Record<string, any>>;

describe('Python package: every outcome is an envelope', () => {
  it("returns an envelope when the provider's JSON nests deeper than Python's recursion limit (the REST route answers it)", async () => {
    const viaRest = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_deep' } });
    expect(viaRest.body).toMatchObject({ ok: true, status: 200 });
    const out = await py(`out = client.DemoCrm.contacts.get({"contact_id": "con_deep"})`);
    expect(out.raised).toBeUndefined();
    // An envelope that says the provider's work is done and this side could not decode the answer.
    expect(out).toMatchObject({ ok: false, status: 503, error: { code: 'TRANSPORT_UNAVAILABLE', details: { provider_execution: 'completed' } } });
    expect(out.error.message).toContain('could not be read');
  }, 60_000);

  it('returns an envelope for an input nested too deeply to encode, as the TypeScript runtime does', async () => {
    const out = await py(`
deep = []
for _ in range(5000):
    deep = [deep]
out = client.DemoCrm.contacts.get({"contact_id": "con_1", "x": deep})`);
    expect(out.raised).toBeUndefined();
    expect(out).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT' } });
  }, 60_000);

  it('does not fail every call with DEADLINE_EXCEEDED when timeout=float("inf") (TypeScript: Infinity means no deadline)', async () => {
    const out = await py(`out = client.DemoCrm.contacts.get({"contact_id": "con_inf"}, timeout=float("inf"))`);
    expect(out.raised).toBeUndefined();
    // No deadline: the call runs.
    expect(out).toMatchObject({ ok: true, status: 200 });
  }, 60_000);

  it('names the operation, not max_pages, when the operation is not a string', async () => {
    const out = await py(`out = client.call(123, {"contact_id": "con_1"})`);
    expect(out.raised).toBeUndefined();
    expect(out).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT' } });
    expect(out.error.message).not.toMatch(/max_pages/);
  }, 60_000);
});

describe('TypeScript package: every outcome is an envelope', () => {
  it('answers a far-future timeoutMs (Number.MAX_SAFE_INTEGER) with an envelope instead of crashing the process', async () => {
    // runtime.js only refuses timeoutMs <= 0 / NaN and treats Infinity as no deadline; a finite deadline past
    // grpc-js's limit (~3.6e14 ms) makes grpc-js throw "Deadline is too far in the future" asynchronously,
    // outside the try/catch around client.execute: an uncaught exception that kills the caller's process.
    writeFileSync(
      join(project, 'far-deadline.ts'),
      `import { Client } from '@svc-sdk/revgrpc';
const client = new Client({ grpcUrl: process.env.SVC_GRPC_URL!, token: process.env.SVC_EXECUTION_TOKEN! });
const out = await client.DemoCrm.contacts.get({ contact_id: 'con_far' }, { timeoutMs: Number.MAX_SAFE_INTEGER });
console.log(JSON.stringify(out));
client.close();
`,
    );
    const out = await runNode(project, 'far-deadline.ts', env()).catch((err: { stderr?: string }) => ({ crashed: String(err.stderr).split('\n').find((l) => /Error/.test(l)) }));
    expect(out).not.toHaveProperty('crashed');
    expect(out).toMatchObject({ ok: true, status: 200, data: { id: 'con_far' } });
  }, 60_000);

  it('answers a signal that is not an AbortSignal with an envelope naming it (it threw inside the gRPC callback)', async () => {
    writeFileSync(
      join(project, 'bad-signal.ts'),
      `import { Client } from '@svc-sdk/revgrpc';
const client = new Client({ grpcUrl: process.env.SVC_GRPC_URL!, token: process.env.SVC_EXECUTION_TOKEN! });
const out = await client.DemoCrm.contacts.get({ contact_id: 'con_sig' }, { signal: {} as AbortSignal });
console.log(JSON.stringify(out));
client.close();
`,
    );
    const out = await runNode(project, 'bad-signal.ts', env()).catch((err: { stderr?: string }) => ({ crashed: String(err.stderr).split('\n').find((l) => /Error/.test(l)) }));
    expect(out).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'signal', provider_execution: 'not_started' } } });
  }, 60_000);
});
