// Edges of the gRPC service and the generated packages (deadlines past 24.8 days, oversized input,
// an already-aborted signal, a caller bound's continuation, selectors in a Unified-only README). Real Engine, real @grpc/grpc-js and grpcio, packages downloaded
// from the Engine and installed as an application would.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { download, installBoth, publishApp, runNode, runPython, typecheck, type Workdir } from '../fixtures/sdk-packages.ts';

const SECRET = 'canary-grpc-review-4f1a9c';

let t: TestEngine;
let provider: FakeProvider;
let sdk: { versionId: string; token: string };
let work: Workdir;
let project: string;
let python: string;
const workdirs: Workdir[] = [];

beforeAll(async () => {
  provider = await startFakeProvider((req, res) => {
    const url = new URL(req.url, 'http://x');
    // contacts/list: three cursor pages of one contact each.
    if (url.pathname === '/v1/contacts') {
      const page = Number(url.searchParams.get('starting_after')?.slice(4) ?? 0) + 1;
      return json(res, 200, { data: [{ id: `con_${page}` }], has_more: page < 3 });
    }
    json(res, 200, { id: url.pathname.split('/')[3] ?? null });
  });
  t = await startTestEngine({ SVC_GRPC_PORT: '0' });
  sdk = await publishSdk(t, { name: 'review', service: 'demo-crm', baseUrl: provider.url, secret: SECRET, operations: ['contacts/get', 'contacts/list'] });
  ({ work, project, python } = await installBoth(t, 'review', '1.0.0', 'svc-grpc-review-'));
  workdirs.push(work);
}, 180_000);

afterAll(async () => {
  for (const w of workdirs) w.cleanup();
  await t?.stop();
  await provider?.stop();
});

const env = () => ({ SVC_GRPC_URL: t.engine.grpcUrl, SVC_EXECUTION_TOKEN: sdk.token });

/** Runs a TypeScript program against the installed package; prints one JSON line. */
async function ts(file: string, body: string): Promise<any> {
  writeFileSync(
    join(project, file),
    `import { Client } from '@svc-sdk/review';
const client = new Client({ grpcUrl: process.env.SVC_GRPC_URL!, token: process.env.SVC_EXECUTION_TOKEN! });
${body}
client.close();
`,
  );
  return runNode(project, file, env());
}

/** Runs Python code against the installed wheel (a venv of /usr/bin/python3); `out` is printed as a dict. */
const py = (body: string): Promise<any> =>
  runPython(
    python,
    `
import json, os
from svc_sdk_review import Client
client = Client(grpc_url=os.environ["SVC_GRPC_URL"], token=os.environ["SVC_EXECUTION_TOKEN"])
${body}
print(json.dumps(out.to_dict()))
`,
    env(),
  );

describe('typed packages: call deadlines', () => {
  it('honour a 30-day deadline instead of failing the call at once with DEADLINE_EXCEEDED', async () => {
    // The runtimes accept deadlines up to ~3 years (runtime.js MAX_DEADLINE_MS = 1e11 ms,
    // _runtime.py _MAX_TIMEOUT_S = 1e8 s) and send them as grpc-timeout. The Engine's grpc-js server
    // computes the deadline as `(value * unit) | 0` (int32 ms): 30 days = 2.592e9 ms wraps to a
    // negative number, its deadline timer fires after 1 ms and every such call fails with
    // DEADLINE_EXCEEDED (TRANSPORT_UNAVAILABLE 504). Deadlines of 24.9-49.7 days fail at once; longer
    // ones wrap to a shorter deadline than the caller asked for.
    const THIRTY_DAYS_MS = 30 * 24 * 3600 * 1000;
    const viaTs = await ts('long-deadline.ts', `console.log(JSON.stringify(await client.DemoCrm.contacts.get({ contact_id: 'con_long' }, { timeoutMs: ${THIRTY_DAYS_MS} })));`);
    const viaPy = await py(`out = client.DemoCrm.contacts.get({"contact_id": "con_long"}, timeout=${THIRTY_DAYS_MS / 1000})`);
    const served = { ok: true, status: 200, data: { id: 'con_long' } };
    expect({ typescript: viaTs, python: viaPy }).toMatchObject({ typescript: served, python: served });
  }, 60_000);
});

describe('typed packages: refusals the Engine made before executing anything', () => {
  it('an input past 4x the request limit gets the 413 ENGINE_INPUT_TOO_LARGE REST gives, not TRANSPORT_UNAVAILABLE with provider_execution unknown', async () => {
    // src/grpc/server.ts caps the message at 4 x maxRequestBytes + 64 KiB; past it grpc-js answers
    // RESOURCE_EXHAUSTED before the handler. The runtimes turn every non-OK status into
    // TRANSPORT_UNAVAILABLE 503 with provider_execution 'unknown': the caller is told the provider
    // may have acted on a call the Engine refused unread, where REST answers 413 not_started.
    const limit = t.engine.deps.config.maxRequestBytes;
    const pad = limit * 5;
    const viaRest = await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 'con_1', pad: 'x'.repeat(pad) } });
    expect(viaRest.status).toBe(413);
    expect(viaRest.body).toMatchObject({ ok: false, status: 413, error: { code: 'ENGINE_INPUT_TOO_LARGE', details: { provider_execution: 'not_started' } } });
    const viaTs = await ts('too-large.ts', `console.log(JSON.stringify(await client.DemoCrm.contacts.get({ contact_id: 'con_1', pad: 'x'.repeat(${pad}) } as never)));`);
    const viaPy = await py(`out = client.DemoCrm.contacts.get({"contact_id": "con_1", "pad": "x" * ${pad}})`);
    const refused = { ok: false, status: 413, error: { code: 'ENGINE_INPUT_TOO_LARGE', details: { provider_execution: 'not_started' } } };
    expect({ typescript: viaTs, python: viaPy }).toMatchObject({ typescript: refused, python: refused });
  }, 60_000);

  it('TypeScript: a signal already aborted reports provider_execution not_started (nothing was sent)', async () => {
    // runtime.js answers an already-aborted signal before calling grpc-js ("the call was aborted
    // before it started") but through transportFailure, which always says provider_execution
    // 'unknown' — telling the caller to check the provider before repeating a call that never left.
    const before = provider.requests.length;
    const out = await ts('pre-aborted.ts', `console.log(JSON.stringify(await client.DemoCrm.contacts.get({ contact_id: 'con_1' }, { signal: AbortSignal.abort() })));`);
    expect(provider.requests.length).toBe(before);
    expect(out).toMatchObject({ ok: false, error: { code: 'TRANSPORT_UNAVAILABLE' } });
    expect(out.error.details.provider_execution).toBe('not_started');
  }, 60_000);
});

describe('typed packages: a caller bound that stops early', () => {
  it('carries the continuation in both languages, and none when the provider ran out', async () => {
    const viaTs = await ts(
      'continuation.ts',
      `const bounded = await client.DemoCrm.contacts.list({}, { pagination: { maxPages: 2 } });
const whole = await client.DemoCrm.contacts.list({});
console.log(JSON.stringify({ bounded: bounded.ok ? bounded.continuation : bounded.error, whole: whole.ok ? whole.continuation ?? null : whole.error }));`,
    );
    expect(viaTs).toEqual({ bounded: { more: true, input: { starting_after: 'con_2' } }, whole: null });
    const viaPy = await runPython(
      python,
      `
import json, os
from svc_sdk_review import Client
client = Client(grpc_url=os.environ["SVC_GRPC_URL"], token=os.environ["SVC_EXECUTION_TOKEN"])
bounded = client.DemoCrm.contacts.list({}, max_pages=2)
whole = client.DemoCrm.contacts.list({})
print(json.dumps({"bounded": bounded.continuation, "dict": bounded.to_dict().get("continuation"), "whole": whole.continuation}))
`,
      env(),
    );
    expect(viaPy).toEqual({ bounded: { more: true, input: { starting_after: 'con_2' } }, dict: { more: true, input: { starting_after: 'con_2' } }, whole: null });
  });
});

describe('generated README', () => {
  it('shows a selectors example that compiles and runs for an SDK whose operations are all Unified', async () => {
    // The "Selectors for OAuth end users" snippets call firstOp with flat selectors. When every
    // selected operation is Unified (publishing allows it: the step services are selected, none of
    // their operations), firstOp is Unified: its TypeScript options (UnifiedCallOptions) have no
    // `selectors` (TS2353) and its Python method has no `selectors` keyword (TypeError).
    const published = await publishApp(t, 'unionly', provider.url, SECRET, ['unified=tasks.create']);
    const readme = (await download(t, 'unionly', published.version, 'readme')).bytes.toString('utf8');
    const section = readme.slice(readme.indexOf('\n## Selectors for OAuth end users\n'));
    const tsSnippet = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const pySnippet = /```python\n([\s\S]*?)```/.exec(section)![1]!;
    const installed = await installBoth(t, 'unionly', published.version, 'svc-grpc-review-unified-');
    workdirs.push(installed.work);

    writeFileSync(
      join(installed.project, 'selectors.ts'),
      `import { Client } from '@svc-sdk/unionly';
const client = new Client({ grpcUrl: process.env.SVC_GRPC_URL!, token: process.env.SVC_EXECUTION_TOKEN! });
${tsSnippet}
client.close();
`,
    );
    const checked = await typecheck(installed.project, ['selectors.ts']);

    const ran = (await runPython(
      installed.python,
      `
import json, os
from svc_sdk_unionly import Client
client = Client(grpc_url=os.environ["SVC_GRPC_URL"], token=os.environ["SVC_EXECUTION_TOKEN"])
try:
${pySnippet
  .trim()
  .split('\n')
  .map((l) => `    ${l}`)
  .join('\n')}
    print(json.dumps({"raised": None}))
except TypeError as err:
    print(json.dumps({"raised": str(err)}))
`,
      { SVC_GRPC_URL: t.engine.grpcUrl, SVC_EXECUTION_TOKEN: published.token },
    )) as { raised: string | null };
    expect({ typescript: checked.output, python: ran.raised }).toEqual({ typescript: '', python: null });
  }, 180_000);
});
