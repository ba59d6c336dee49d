// gRPC refusals name the ExecuteRequest fields the caller sent (input_json, operation, version_id),
// not the REST request they stand for (body/input, body/operation, parameters/version_id); a
// request that is not a valid ExecuteRequest message is INVALID_ARGUMENT naming the field, not
// INTERNAL "Error deserializing request".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, credentials, Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { ExecuteRequest } from '../../generated/grpc/engine.ts';
import { startTestEngine, publishSdk, type TestEngine } from '../fixtures/engine.ts';
import { startFakeProvider, json, type FakeProvider } from '../fixtures/fake-provider.ts';
import { RawEngineClient } from '../fixtures/grpc.ts';

let t: TestEngine;
let provider: FakeProvider;
let sdk: { versionId: string; token: string };
let client: RawEngineClient;
let raw: Client;

beforeAll(async () => {
  provider = await startFakeProvider((req, res) => json(res, 200, { id: new URL(req.url, 'http://x').pathname.split('/')[3] }));
  t = await startTestEngine({ SVC_GRPC_PORT: '0' });
  sdk = await publishSdk(t, { name: 'grpcerr', service: 'demo-crm', baseUrl: provider.url, secret: 'canary-grpc-errors-9f2c', operations: ['contacts/get', 'contacts/list'] });
  client = new RawEngineClient(t.engine.grpcUrl);
  raw = new Client(t.engine.grpcUrl, credentials.createInsecure());
});
afterAll(async () => {
  client?.close();
  raw?.close();
  await t?.stop();
  await provider?.stop();
});

/** Sends `bytes` as the Execute request message, exactly as given. */
function sendBytes(bytes: Uint8Array): Promise<{ error?: ServiceError; reply?: Buffer }> {
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${sdk.token}`);
  return new Promise((resolve) => {
    raw.makeUnaryRequest(
      '/svc.engine.v1.Engine/Execute',
      (b: Buffer) => b,
      (b: Buffer) => b,
      Buffer.from(bytes),
      metadata,
      { deadline: Date.now() + 5000 },
      (error, reply) => resolve(error ? { error } : { reply: reply! }),
    );
  });
}

const valid = () => ExecuteRequest.encode({ versionId: sdk.versionId, operation: 'demo-crm.contacts/get', inputJson: '{"contact_id":"con_1"}' }).finish();

describe('gRPC: refusals name the ExecuteRequest fields', () => {
  it.each([
    ['input_json that is an array', { inputJson: '[]' }, 'input_json must be a JSON object, not an array', 'input_json'],
    ['input_json that is a string', { inputJson: '"x"' }, 'input_json must be a JSON object, not a string', 'input_json'],
    ['input_json that is null', { inputJson: 'null' }, 'input_json must be a JSON object, not null', 'input_json'],
    ['an empty operation', { operation: '' }, 'operation must not be empty', 'operation'],
    ['an operation too long', { operation: `demo-crm.${'x'.repeat(300)}` }, 'operation must NOT have more than 300 characters', 'operation'],
    ['an operation holding a control character', { operation: 'demo-crm.contacts/get\u0000' }, 'operation must not hold control characters or unpaired UTF-16 surrogates', 'operation'],
    ['a version ID that is not one', { versionId: 'ver_bad' }, 'version_id must match pattern', 'version_id'],
  ])('%s', async (_label, change, message, field) => {
    const res = await client.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.contacts/get', inputJson: '{"contact_id":"con_1"}', ...change });
    expect(res.error).toBeUndefined();
    expect(res.envelope).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT', details: { field, errors: [{ field, instancePath: `/${field}` }] } } });
    expect(res.envelope!.error!.message).toContain(message);
    expect(res.envelope!.error!.message).not.toMatch(/body\/|parameters\//);
  });
});

describe('gRPC: input_json is parsed as REST bodies are', () => {
  it.each([
    ['nested past 128 levels', `{"contact_id":"con_1","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`, 'input_json: nested deeper than 128 levels'],
    ['an integer a double would change', '{"contact_id":"con_1","id":12345678901234567891}', "input_json property 'id': the integer 12345678901234567891 cannot be represented exactly"],
    ['a number out of range', '{"contact_id":"con_1","n":-1e400}', "input_json property 'n': the number -1e400 is out of range"],
  ])('refuses %s, naming input_json, before the provider', async (_label, inputJson, message) => {
    const before = provider.requests.length;
    const res = await client.execute(sdk.token, { versionId: sdk.versionId, operation: 'demo-crm.contacts/get', inputJson });
    expect(res.envelope).toMatchObject({ ok: false, status: 400, error: { code: 'ENGINE_INVALID_INPUT', details: { field: 'input_json' } } });
    expect(res.envelope!.error!.message).toContain(message);
    expect(provider.requests.length).toBe(before);
  });
});

describe('gRPC: a request that is not a valid ExecuteRequest message is INVALID_ARGUMENT', () => {
  const tag = (field: number, wire: number) => (field << 3) | wire;
  it.each([
    ['a length past the end', Buffer.from([tag(3, 2), 10, 0x7b]), /input_json \(field 3\) is cut short .*at byte \d+/],
    ['an unterminated tag varint', Buffer.from([0xff]), /a tag is cut short .*at byte \d+/],
    ['field number 0', Buffer.from([0x00, 0x01]), /a tag cannot be read \(illegal tag: field no 0/],
    ['a known field with another wire type', Buffer.from([tag(3, 0), 1]), /input_json \(field 3\) is encoded as varint, not length-delimited/],
    ['a string that is not UTF-8', Buffer.from([tag(2, 2), 2, 0xc3, 0x28]), /operation \(field 2\) is not valid UTF-8/],
    ['a nested message cut short', Buffer.from([tag(4, 2), 2, tag(1, 0), 0xff]), /pagination\.max_pages \(field 1\) is cut short/],
    ['a nested message longer than the message', Buffer.from([tag(5, 2), 9, tag(1, 2), 0]), /selectors \(field 5\) is 9 bytes long, past the end of the message/],
  ])('%s', async (_label, bytes, detail) => {
    const before = provider.requests.length;
    const res = await sendBytes(Buffer.concat([Buffer.from(valid()), bytes]));
    expect(res.error?.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(res.error?.details).toMatch(/^the request is not a valid svc\.engine\.v1\.ExecuteRequest message: /);
    expect(res.error?.details).toMatch(detail);
    expect(provider.requests.length).toBe(before);
  });

  it('still takes a valid message, and skips fields it does not know (protobuf compatibility)', async () => {
    const unknown = new BinaryWriter().uint32((9 << 3) | 2).string('from a newer client').finish();
    const res = await sendBytes(Buffer.concat([Buffer.from(valid()), Buffer.from(unknown)]));
    expect(res.error).toBeUndefined();
    const reply = (await import('../../generated/grpc/engine.ts')).Envelope.decode(res.reply!);
    expect(reply).toMatchObject({ ok: true, status: 200 });
    expect(JSON.parse(reply.dataJson)).toEqual({ id: 'con_1' });
  });
});
