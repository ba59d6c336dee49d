// Error parity across the three ways to call an SDK: the same bad token, forbidden operation,
// invalid input and invalid pagination bound give identical envelopes over REST, through the
// TypeScript package (gRPC) and through the Python package (gRPC).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { installBoth, runNode, runPython, type Workdir } from '../fixtures/sdk-packages.ts';

const SECRET = 'canary-parity-3e8d1a6b27';
const BAD_TOKEN = `svc_sdk_${'A'.repeat(43)}`;

let t: TestEngine;
let provider: FakeProvider;
let work: Workdir;
let project: string;
let python: string;
let sdk: { versionId: string; token: string };

/** [label, token, operation, input, pagination] */
const CASES: [string, 'bad' | 'good', string, Record<string, unknown>, { maxPages: number } | undefined][] = [
  ['a bad token', 'bad', 'demo-crm.contacts/get', { contact_id: 'con_1' }, undefined],
  ['a forbidden operation', 'good', 'demo-crm.deals/list', {}, undefined],
  ['invalid input', 'good', 'demo-crm.contacts/get', { contact_id: 42, extra: true }, undefined],
  ['an invalid pagination bound', 'good', 'demo-crm.contacts/list', {}, { maxPages: 50 }],
];

beforeAll(async () => {
  provider = await startFakeProvider((_req, res) => json(res, 200, { data: [], has_more: false }));
  t = await startTestEngine({ SVC_GRPC_PORT: '0' });
  sdk = await publishSdk(t, { name: 'parity', service: 'demo-crm', baseUrl: provider.url, secret: SECRET, operations: ['contacts/get', 'contacts/list'] });
  ({ work, project, python } = await installBoth(t, 'parity', '1.0.0', 'svc-parity-'));
}, 180_000);

afterAll(async () => {
  work?.cleanup();
  await t?.stop();
  await provider?.stop();
});

describe('error parity: REST, gRPC TypeScript, gRPC Python', () => {
  it('gives identical envelopes for the same refusals', async () => {
    const token = (which: 'bad' | 'good') => (which === 'bad' ? BAD_TOKEN : sdk.token);
    const viaRest = await Promise.all(
      CASES.map(async ([, who, operation, input, pagination]) => (await t.execute(sdk.versionId, token(who), { operation, input, ...(pagination ? { pagination } : {}) })).body),
    );

    writeFileSync(
      join(project, 'parity.ts'),
      `import { Client } from '@svc-sdk/parity';
const cases: [string, string, string, Record<string, unknown>, { maxPages: number } | undefined][] = JSON.parse(process.env.CASES!);
const out = [];
for (const [, token, operation, input, pagination] of cases) {
  const client = new Client({ grpcUrl: process.env.SVC_GRPC_URL!, token });
  out.push(await client.call(operation, input, pagination ? { pagination } : {}));
  client.close();
}
console.log(JSON.stringify(out));
`,
    );
    const tsCases = CASES.map(([label, who, ...rest]) => [label, token(who), ...rest]);
    const viaTs = await runNode(project, 'parity.ts', { SVC_GRPC_URL: t.engine.grpcUrl, CASES: JSON.stringify(tsCases) });

    const viaPy = await runPython(
      python,
      `
import json, os
from svc_sdk_parity import Client
out = []
for _label, token, operation, params, pagination in json.loads(os.environ["CASES"]):
    with Client(grpc_url=os.environ["SVC_GRPC_URL"], token=token) as client:
        out.append(client.call(operation, params, max_pages=pagination["maxPages"] if pagination else None).to_dict())
print(json.dumps(out))
`,
      { SVC_GRPC_URL: t.engine.grpcUrl, CASES: JSON.stringify(tsCases) },
    );

    expect(viaRest.map((e) => e.error?.code)).toEqual(['ENGINE_UNAUTHENTICATED', 'ENGINE_FORBIDDEN_OPERATION', 'ENGINE_INVALID_INPUT', 'ENGINE_PAGINATION_INVALID']);
    expect(viaTs).toEqual(viaRest);
    expect(viaPy).toEqual(viaRest);
  }, 60_000);

  it('refuses the typed method with invalid input the same way', async () => {
    writeFileSync(
      join(project, 'typed.ts'),
      `import { Client } from '@svc-sdk/parity';
const client = new Client({ grpcUrl: process.env.SVC_GRPC_URL!, token: process.env.SVC_EXECUTION_TOKEN! });
console.log(JSON.stringify(await client.DemoCrm.contacts.get({ contact_id: 42 } as never)));
client.close();
`,
    );
    const env = { SVC_GRPC_URL: t.engine.grpcUrl, SVC_EXECUTION_TOKEN: sdk.token };
    const viaTs = await runNode(project, 'typed.ts', env);
    const viaPy = await runPython(
      python,
      `
import json, os
from svc_sdk_parity import Client
with Client(grpc_url=os.environ["SVC_GRPC_URL"], token=os.environ["SVC_EXECUTION_TOKEN"]) as client:
    print(json.dumps(client.DemoCrm.contacts.get({"contact_id": 42}).to_dict()))
`,
      env,
    );
    const viaRest = (await t.execute(sdk.versionId, sdk.token, { operation: 'demo-crm.contacts/get', input: { contact_id: 42 } })).body;
    expect(viaRest).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT' } });
    expect(viaTs).toEqual(viaRest);
    expect(viaPy).toEqual(viaRest);
  }, 60_000);
});
