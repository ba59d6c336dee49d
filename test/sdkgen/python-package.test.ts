// The Python package end to end with Debian's /usr/bin/python3, python3-grpcio and
// python3-protobuf: publish an SDK, download its wheel, install it into a venv that uses the
// system site packages (no index), call the Engine's gRPC port through the typed client against
// a fake provider, and resolve every Python path the README shows. The sdist builds and installs too.
// The Engine traces (a receiver on loopback), so a receipt shows the trace a call continued.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../fixtures/otlp-receiver.ts';
import type { FakeProvider } from '../fixtures/fake-provider.ts';
import { download, expectJoinedTraces, expectKeyedCreates, publishApp, publishImported, startCrmProvider, installPython, installPythonSdist, runPython, workdir, type Downloaded, type Workdir } from '../fixtures/sdk-packages.ts';

const SECRET = 'canary-sdkpy-7c2a5e1f93';

let t: TestEngine;
let receiver: OtlpReceiver;
let provider: FakeProvider;
let work: Workdir;
let python: string;
let published: { versionId: string; token: string; version: string };
let wheel: Downloaded;
let readme: string;

beforeAll(async () => {
  provider = await startCrmProvider(SECRET);
  receiver = await startOtlpReceiver();
  t = await startTestEngine({ SVC_GRPC_PORT: '0', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '50' });
  published = await publishApp(t, 'shop-py', provider.url, SECRET, ['demo-crm=*', 'github=issues/*', 'unified=tasks.create']);
  work = workdir('svc-sdkpy-');
  wheel = await download(t, 'shop-py', published.version, 'python-wheel');
  readme = (await download(t, 'shop-py', published.version, 'readme')).bytes.toString('utf8');
  python = await installPython(work.dir, wheel);
}, 120_000);

afterAll(async () => {
  work?.cleanup();
  await t?.stop();
  await provider?.stop();
  await receiver?.stop();
});

const env = () => ({ SVC_GRPC_URL: t.engine.grpcUrl, SVC_EXECUTION_TOKEN: published.token });

describe('Python package', () => {
  it('is a py3-none-any wheel named after the SDK', () => {
    expect(wheel.filename).toBe(`svc_sdk_shop_py-${published.version}-py3-none-any.whl`);
    expect(wheel.bytes.subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'));
  });

  it('calls the Engine over gRPC and returns Envelope dataclasses', async () => {
    const out = (await runPython(
      python,
      `
import dataclasses, json, os
from svc_sdk_shop_py import Client, Envelope, VERSION_ID
from svc_sdk_shop_py.types import demo_crm

with Client(grpc_url=os.environ["SVC_GRPC_URL"], token=os.environ["SVC_EXECUTION_TOKEN"]) as client:
    got = client.DemoCrm.contacts.get({"contact_id": "con_7"})
    assert isinstance(got, Envelope) and dataclasses.is_dataclass(got)
    body: demo_crm.ContactInput = {"name": "Bob", "email": "bob@example.test", "labels": {"team": "ops"}}
    created = client.DemoCrm.contacts.create({"body": body})
    paged = client.DemoCrm.contacts.list({}, max_pages=2)
    invalid = client.DemoCrm.contacts.get({"contact_id": "nope"})
    task = client.Unified.tasks.create({"input": {"title": "Call Ada"}, "targets": ["crm"]})
    # A Unified method takes its selectors keyed by target in the input, never flat ones.
    try:
        client.Unified.tasks.create({"input": {"title": "x"}, "targets": ["crm"]}, selectors={"end_user_ref": "u1"})
        flat = "accepted"
    except TypeError as err:
        flat = str(err)
    print(json.dumps({"version": VERSION_ID, "got": got.to_dict(), "created": created.to_dict(), "paged": paged.to_dict(), "invalid": invalid.to_dict(), "task": task.to_dict(), "flat": flat}))
`,
      env(),
    )) as Record<string, any>;
    expect(out.version).toBe(published.versionId);
    expect(out.got).toMatchObject({ ok: true, status: 200, data: { id: 'con_7', name: 'Ada' }, error: null });
    expect(out.created).toMatchObject({ ok: true, status: 201, data: { id: 'con_new', name: 'Bob', labels: { team: 'ops' } } });
    expect(out.paged).toMatchObject({ ok: true, data: { data: [{ id: 'con_1' }, { id: 'con_2' }], has_more: true } });
    expect(out.invalid).toMatchObject({ ok: false, status: 400, data: null, error: { code: 'ENGINE_INVALID_INPUT' } });
    expect(out.task).toMatchObject({ ok: true, data: { output: { tasks: [{ provider: 'crm', id: 'tsk_1', url: null }] }, steps: [{ target: 'crm', status: 'succeeded' }] } });
    expect(out.flat).toMatch(/unexpected keyword argument 'selectors'/);
    const receipts = (await t.api('GET', `/v1/versions/${published.versionId}/receipts?limit=50`)).body.receipts as { surface: string }[];
    expect(receipts.length).toBeGreaterThanOrEqual(4);
    expect(receipts.every((r) => r.surface === 'grpc')).toBe(true);
  }, 30_000);

  it('sends an idempotency key: a repeated create answers the first result and reaches the provider once', async () => {
    const posts = () => provider.requests.filter((r) => r.method === 'POST' && r.url === '/v1/contacts').length;
    const before = posts();
    const out = (await runPython(
      python,
      `
import json, os
from svc_sdk_shop_py import Client

with Client(grpc_url=os.environ["SVC_GRPC_URL"], token=os.environ["SVC_EXECUTION_TOKEN"]) as client:
    body = {"name": "Grace", "email": "grace@example.test"}
    first = client.DemoCrm.contacts.create({"body": body}, idempotency_key="py-create-1")
    again = client.DemoCrm.contacts.create({"body": body}, idempotency_key="py-create-1")
    changed = client.DemoCrm.contacts.create({"body": {**body, "name": "Ada"}}, idempotency_key="py-create-1")
    spaced = client.call("demo-crm.contacts/create", {"body": body}, idempotency_key="has a space")
    print(json.dumps({k: v.to_dict() for k, v in {"first": first, "again": again, "changed": changed, "spaced": spaced}.items()}))
`,
      env(),
    )) as Record<string, any>;
    expectKeyedCreates(out, posts() - before);
  }, 30_000);

  it('continues the caller’s trace: a traceparent given, else the active context of an app that has OpenTelemetry', async () => {
    const hex = (bytes: number) => randomBytes(bytes).toString('hex');
    const [given, active] = [hex(16), hex(16)];
    // The app's OpenTelemetry API, as far as the package reads it: opentelemetry.propagate.inject
    // writing the active context (Debian packages no OpenTelemetry for Python; this stands in for it).
    const site = join(work.dir, 'otel-site');
    mkdirSync(join(site, 'opentelemetry'), { recursive: true });
    writeFileSync(join(site, 'opentelemetry', '__init__.py'), '');
    writeFileSync(join(site, 'opentelemetry', 'propagate.py'), `def inject(carrier, context=None, setter=None):\n    carrier["traceparent"] = "00-${active}-${hex(8)}-01"\n`);
    const call = (withOtel: boolean, code: string) =>
      runPython(
        python,
        `
import json, os
from svc_sdk_shop_py import Client

with Client(grpc_url=os.environ["SVC_GRPC_URL"], token=os.environ["SVC_EXECUTION_TOKEN"]) as client:
    ${code}
`,
        { ...env(), ...(withOtel ? { PYTHONPATH: site } : {}) },
      ) as Promise<Record<string, any>>;
    const explicit = await call(
      false,
      `given = client.DemoCrm.contacts.get({"contact_id": "con_7"}, traceparent="00-${given}-${hex(8)}-01", tracestate="shop=1")
    bad = client.call("demo-crm.contacts/get", {"contact_id": "con_7"}, traceparent="00-${'0'.repeat(32)}-${hex(8)}-01")
    lone = client.call("demo-crm.contacts/get", {"contact_id": "con_7"}, tracestate="shop=1")
    print(json.dumps({"given": given.to_dict(), "bad": bad.to_dict(), "lone": lone.to_dict()}))`,
    );
    expect(explicit.given).toMatchObject({ ok: true, status: 200 });
    expect(explicit.bad).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'traceparent', provider_execution: 'not_started' } } });
    expect(explicit.lone).toMatchObject({ ok: false, status: 400, error: { details: { field: 'tracestate' } } });
    const auto = await call(true, `print(json.dumps(client.DemoCrm.contacts.get({"contact_id": "con_7"}).to_dict()))`);
    expect(auto).toMatchObject({ ok: true, status: 200 });
    await expectJoinedTraces(t, published.versionId, provider, given, active);
  }, 60_000);

  it('turns transport failures into TRANSPORT_UNAVAILABLE envelopes without raising', async () => {
    const out = await runPython(
      python,
      `
import json
from svc_sdk_shop_py import Client
client = Client(grpc_url="grpc://127.0.0.1:1", token="svc_sdk_x", timeout=2)
print(json.dumps(client.DemoCrm.contacts.get({"contact_id": "con_1"}).to_dict()))
`,
    );
    expect(out).toMatchObject({ ok: false, status: 503, data: null, error: { code: 'TRANSPORT_UNAVAILABLE', retryable: true, details: { grpc_status: 'UNAVAILABLE' } } });
  }, 30_000);

  it('refuses a token it cannot send (a trailing newline from a file) when the client is made, without echoing it', async () => {
    const out = (await runPython(
      python,
      `
import json, os
from svc_sdk_shop_py import Client
try:
    Client(grpc_url="127.0.0.1:1", token=os.environ["SVC_EXECUTION_TOKEN"] + "\\n")
    message = "accepted"
except ValueError as err:
    message = str(err)
print(json.dumps({"message": message}))
`,
      env(),
    )) as { message: string };
    expect(out.message).toMatch(/token must be the SDK execution token/);
    expect(out.message).not.toContain(published.token.slice(8));
  }, 30_000);

  it('answers arguments it cannot send, and calls after close, with envelopes instead of raising', async () => {
    const out = (await runPython(
      python,
      `
import json, os
from svc_sdk_shop_py import Client
client = Client(grpc_url=os.environ["SVC_GRPC_URL"], token=os.environ["SVC_EXECUTION_TOKEN"])
answers = {
  "pages_text": client.DemoCrm.contacts.list({}, max_pages="2"),
  "pages_huge": client.DemoCrm.contacts.list({}, max_pages=2**31),
  "selectors_ts_spelling": client.DemoCrm.contacts.get({"contact_id": "con_7"}, selectors={"endUserRef": "u1"}),
  "timeout_text": client.DemoCrm.contacts.get({"contact_id": "con_7"}, timeout="5"),
  "lone_surrogate": client.DemoCrm.contacts.get({"contact_id": "\ud800"}),
}
client.close()
answers["after_close"] = client.DemoCrm.contacts.get({"contact_id": "con_7"})
print(json.dumps({k: v.to_dict() for k, v in answers.items()}))
`,
      env(),
    )) as Record<string, any>;
    expect(out.pages_text).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_PAGINATION_INVALID' } });
    expect(out.pages_huge).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_PAGINATION_INVALID' } });
    expect(out.selectors_ts_spelling).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'selectors' } } });
    expect(out.timeout_text).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'timeout' } } });
    expect(out.lone_surrogate).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT' } }); // refused by the Engine, not a UnicodeEncodeError
    expect(out.after_close).toMatchObject({ ok: false, status: 503, error: { code: 'TRANSPORT_UNAVAILABLE', details: { grpc_status: 'CANCELLED' } } });
  }, 30_000);

  it('types inputs and outputs with TypedDicts that resolve', async () => {
    const out = (await runPython(
      python,
      `
import json, typing
from svc_sdk_shop_py.types import demo_crm, github
hints = typing.get_type_hints(demo_crm.ContactsGetInput)
names = [n for n in dir(github) if n.endswith("Input")]
for n in names:
    typing.get_type_hints(getattr(github, n))
print(json.dumps({"contact_id": str(hints["contact_id"]), "required": sorted(demo_crm.ContactsGetInput.__required_keys__), "github_inputs": len(names), "issue": typing.is_typeddict(github.Issue)}))
`,
    )) as Record<string, unknown>;
    expect(out).toEqual({ contact_id: "<class 'str'>", required: ['contact_id'], github_inputs: expect.any(Number), issue: true });
    expect(out.github_inputs).toBeGreaterThan(40);
  }, 30_000);

  it('resolves every Python path of the README on the client object', async () => {
    const rows = [...readme.matchAll(/^\| `client\.[\w.]+` \| `(client\.[\w.]+)` \| `([^`]+)` \|/gm)];
    expect(rows.map((m) => m[2]).sort()).toEqual((await t.api('GET', '/v1/sdks/shop-py/versions')).body.versions[0].operations);
    const pyBlocks = [...readme.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n');
    const shown = [...new Set([...rows.map((m) => m[1]!), ...[...pyBlocks.matchAll(/\b(client\.[A-Z]\w*(?:\.\w+)+)\(/g)].map((m) => m[1]!)])];
    const out = (await runPython(
      python,
      `
import functools, json, os
from svc_sdk_shop_py import Client
client = Client(grpc_url="127.0.0.1:1", token="svc_sdk_x")
paths = json.loads(os.environ["PATHS"])
missing = [p for p in paths if not callable(functools.reduce(lambda node, key: getattr(node, key, None), p.split(".")[1:], client))]
print(json.dumps({"missing": missing, "checked": len(paths)}))
`,
      { PATHS: JSON.stringify(shown) },
    )) as { missing: string[]; checked: number };
    expect(out.missing).toEqual([]);
    expect(out.checked).toBeGreaterThan(50);
  }, 30_000);

  it('ships an sdist that builds and installs offline', async () => {
    const sdist = await download(t, 'shop-py', published.version, 'python-sdist');
    expect(sdist.filename).toBe(`svc_sdk_shop_py-${published.version}.tar.gz`);
    const other = await installPythonSdist(work.dir, sdist);
    const out = await runPython(other, `import json, svc_sdk_shop_py as p; print(json.dumps([p.__version__, p.VERSION_ID]))`);
    expect(out).toEqual([published.version, published.versionId]);
  }, 90_000);
});

describe('Python package of awkward provider names', () => {
  it('imports with schemas named none/true/false, and keeps groups that PascalCase alike apart', async () => {
    const document = `openapi: 3.0.3
info: { title: Consts, version: '1' }
servers: [{ url: '${provider.url}' }]
paths:
  /things:
    post:
      operationId: makeThing
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/none' } } } }
      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/true' } } } } }
  /a:
    get: { operationId: getA, tags: [v2Beta], responses: { '200': { description: ok } } }
  /b:
    get: { operationId: getB, tags: [v2beta], responses: { '200': { description: ok } } }
components:
  schemas:
    none: { type: object, properties: { a: { type: string } } }
    'true': { type: object, properties: { b: { $ref: '#/components/schemas/false' } } }
    'false': { type: object, properties: { c: { type: integer } } }
`;
    const res = { body: await publishImported(t, 'consts', document) };
    const constsWork = workdir('svc-sdkpy-consts-');
    try {
      const constsWheel = await download(t, 'consts', res.body.version, 'python-wheel');
      const py = await installPython(constsWork.dir, constsWheel);
      const out = (await runPython(py, 'import json, svc_sdk_consts, svc_sdk_consts.types\nprint(json.dumps(sorted(n for n in dir(svc_sdk_consts.types) if not n.startswith("_"))))')) as string[];
      expect(out).toEqual(expect.arrayContaining(['consts']));
      // Groups whose Python names differ (v2_beta, v2beta) but PascalCase alike each keep their methods.
      const methods = await runPython(py, 'import json\nfrom svc_sdk_consts import Client\nc = Client(grpc_url="127.0.0.1:1", token="svc_sdk_x")\nprint(json.dumps([callable(getattr(c.Consts.v2_beta, "get_a", None)), callable(getattr(c.Consts.v2beta, "get_b", None))]))');
      expect(methods).toEqual([true, true]);
    } finally {
      constsWork.cleanup();
    }
  }, 180_000);
});
