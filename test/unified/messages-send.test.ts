// unified.messages.send (spec/unified/messages.send.yaml) over four real providers' catalogues,
// each against its fake on loopback: Slack chat.postMessage, SendGrid mail send, Zoom chat and a
// Twilio SMS, through REST and MCP execute; Slack's { ok: false } fails its step and not the others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointService, startTestEngine, type TestEngine } from '../fixtures/engine.ts';
import { publishApps, withMcpClient } from '../fixtures/providers/app.ts';
import { startSlack, type FakeSlack } from '../fixtures/providers/slack.ts';
import { startSendGrid, type FakeSendGrid } from '../fixtures/providers/sendgrid.ts';
import { startZoom, type FakeZoom } from '../fixtures/providers/zoom.ts';
import { startTwilio, type FakeTwilio } from '../fixtures/providers/twilio.ts';

const TWILIO_SID = 'ACfedcba9876543210fedcba9876543210';
const SECRETS = { slack: 'xoxb-canary-unified-slack', sendgrid: 'SG.canary-unified-sendgrid', zoom: 'zoom-canary-unified-token', twilio: `${TWILIO_SID}:canary-unified-twilio` };

let t: TestEngine;
let slack: FakeSlack;
let sendgrid: FakeSendGrid;
let zoom: FakeZoom;
let twilio: FakeTwilio;
let sdk: { versionId: string; token: string };
let mcp: { url: string; token: string };

beforeAll(async () => {
  slack = await startSlack({ botToken: SECRETS.slack, channels: 3 });
  sendgrid = await startSendGrid({ apiKey: SECRETS.sendgrid });
  zoom = await startZoom({ token: SECRETS.zoom });
  twilio = await startTwilio({ accountSid: TWILIO_SID, authToken: 'canary-unified-twilio', messages: 0 });
  t = await startTestEngine();
  t.canaries.push(...Object.values(SECRETS), 'canary-unified-twilio');
  for (const [service, url] of [['slack', slack.apiUrl], ['sendgrid', sendgrid.apiUrl], ['zoom', zoom.apiUrl], ['twilio', twilio.apiUrl]] as const) await pointService(t, service, url, SECRETS[service]);
  ({ sdk, mcp } = await publishApps(t, 'notify', {
    services: ['slack=v1', 'sendgrid=v1', 'zoom=v1', 'twilio=v1'],
    operations: ['unified=messages.send', 'slack=chat_postMessage', 'sendgrid=POST_mail-send', 'zoom=sendaChatMessage', 'twilio=CreateMessage'],
  }));
});
afterAll(async () => {
  await t?.stop();
  await Promise.all([slack?.stop(), sendgrid?.stop(), zoom?.stop(), twilio?.stop()]);
});

const send = (body: Record<string, unknown>) => t.execute(sdk.versionId, sdk.token, { operation: 'unified.messages.send', ...body });
const everywhere = { text: 'Release 2.4 is out', channel: 'C0001', to: 'team@example.test', from: 'sender1@example.test', subject: 'Release 2.4', zoomChannel: 'ch_releases' };

describe('unified.messages.send', () => {
  it('sends one message to Slack, SendGrid and Zoom through REST', async () => {
    const res = await send({ input: everywhere, targets: ['slack', 'sendgrid', 'zoom'] });
    expect(res.status).toBe(200);
    expect(res.body.ok, JSON.stringify(res.body)).toBe(true);
    expect(res.body.data.output.messages).toEqual([
      { provider: 'slack', id: slack.messages.get('C0001')!.at(-1)!.ts },
      { provider: 'sendgrid', id: null },
      { provider: 'zoom', id: zoom.chat.at(-1)!.id },
    ]);
    expect(res.body.data.steps.map((s: any) => [s.target, s.operation, s.status, s.httpStatus])).toEqual([
      ['slack', 'slack.chat_postMessage', 'succeeded', 200],
      ['sendgrid', 'sendgrid.POST_mail-send', 'succeeded', 202],
      ['zoom', 'zoom.sendaChatMessage', 'succeeded', 201],
    ]);
    expect(slack.messages.get('C0001')!.at(-1)!.text).toBe('Release 2.4 is out');
    expect(sendgrid.sent.at(-1)).toEqual({
      personalizations: [{ to: [{ email: 'team@example.test' }] }],
      from: { email: 'sender1@example.test' },
      subject: 'Release 2.4',
      content: [{ type: 'text/plain', value: 'Release 2.4 is out' }],
    });
    expect(zoom.chat.at(-1)).toMatchObject({ message: 'Release 2.4 is out', to_channel: 'ch_releases' });
  });

  it('sends only to the targets asked for', async () => {
    const before = { slack: slack.provider.requests.length, sendgrid: sendgrid.provider.requests.length };
    const res = await send({ input: { text: 'Zoom only', zoomContact: 'user2@example.test' }, targets: ['zoom'] });
    expect(res.body).toMatchObject({ ok: true, data: { output: { messages: [{ provider: 'zoom', id: expect.any(String) }] } } });
    expect(zoom.chat.at(-1)).toMatchObject({ message: 'Zoom only', to_contact: 'user2@example.test' });
    expect([slack.provider.requests.length, sendgrid.provider.requests.length]).toEqual([before.slack, before.sendgrid]);
  });

  it('texts through Twilio (a form with To, From and Body) beside Slack, and fails its step on Twilio\'s error', async () => {
    const sms = { twilioAccountSid: TWILIO_SID, phone: '+15558675310', phoneFrom: '+15005550006' };
    const res = await send({ input: { text: 'Deploy done', channel: 'C0001', ...sms }, targets: ['slack', 'twilio'] });
    expect(res.body.ok, JSON.stringify(res.body)).toBe(true);
    expect(res.body.data.output.messages).toEqual([
      { provider: 'slack', id: slack.messages.get('C0001')!.at(-1)!.ts },
      { provider: 'twilio', id: twilio.messages.at(-1)!.sid },
    ]);
    expect(res.body.data.steps.find((s: any) => s.target === 'twilio')).toMatchObject({ operation: 'twilio.CreateMessage', status: 'succeeded', httpStatus: 201 });
    const request = twilio.provider.requests.at(-1)!;
    expect(request.url).toBe(`/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`);
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ To: '+15558675310', From: '+15005550006', Body: 'Deploy done' });
    // A From that is not the account's: Twilio's 21606 fails the Twilio step only.
    const refused = await send({ input: { text: 'x', zoomChannel: 'ch_releases', ...sms, phoneFrom: '+15550009999' }, targets: ['zoom', 'twilio'] });
    expect(refused.body).toMatchObject({ ok: false, error: { code: 'UNIFIED_STEP_FAILED' } });
    expect(refused.body.data.steps).toEqual([
      expect.objectContaining({ target: 'zoom', status: 'succeeded' }),
      expect.objectContaining({ target: 'twilio', status: 'failed', httpStatus: 400, error: expect.objectContaining({ code: 'PROVIDER_ERROR' }) }),
    ]);
    expect(JSON.stringify(refused.body)).not.toContain('canary');
  });

  it('fails the Slack step on Slack\'s { ok: false } and still reports the steps that succeeded', async () => {
    const res = await send({ input: { ...everywhere, channel: 'C0404' }, targets: ['slack', 'zoom'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'UNIFIED_STEP_FAILED' } });
    expect(res.body.data.steps).toEqual([
      expect.objectContaining({ target: 'slack', status: 'failed', httpStatus: 200, dispatched: true, error: expect.objectContaining({ code: 'PROVIDER_ERROR' }) }),
      expect.objectContaining({ target: 'zoom', status: 'succeeded', httpStatus: 201 }),
    ]);
  });

  it('runs through MCP execute, and search_docs offers it for sending a message', async () => {
    await withMcpClient(mcp, async (client) => {
      const code = 'return await call("unified.messages.send", { input: { text: "From an agent", channel: "channel-2", to: "ops@example.test", from: "sender2@example.test", subject: "Agent" }, targets: ["slack", "sendgrid"] });';
      const r = (await client.callTool({ name: 'execute', arguments: { code } })) as any;
      expect(r.isError ?? false, JSON.stringify(r.structuredContent)).toBe(false);
      expect(r.structuredContent.result).toMatchObject({ ok: true, data: { output: { messages: [{ provider: 'slack' }, { provider: 'sendgrid', id: null }] } } });
      expect(slack.messages.get('C0002')!.at(-1)!.text).toBe('From an agent');
      expect(sendgrid.sent.at(-1)!.from.email).toBe('sender2@example.test');
      const search = (await client.callTool({ name: 'search_docs', arguments: { query: 'send a message' } })) as any;
      expect(search.structuredContent.results[0]).toMatchObject({ operationId: 'unified.messages.send', kind: 'unified' });
    });
  });
});
