// The Engine warns in its log at start when clients reach it over plain HTTP from another machine
// (issue 30 §8). Test Engines listen on 127.0.0.1 only, so the case shown here is an http://
// SVC_PUBLIC_URL on another host (a proxy forwarding without TLS); listening off loopback is
// checked on the same function in test/config/plain-http-warning.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestEngine, type TestEngine } from '../fixtures/engine.ts';

let t: TestEngine | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});
const warnings = (engine: TestEngine) => engine.logs.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40 && /plain HTTP/.test(l.msg));

describe('the Engine at start', () => {
  it('warns when its public URL is plain HTTP on another host', async () => {
    t = await startTestEngine({ SVC_PUBLIC_URL: 'http://engine.example.test' });
    expect(warnings(t).map((w) => w.msg)).toEqual([expect.stringMatching(/^SVC_PUBLIC_URL \(http:\/\/engine\.example\.test\) is plain HTTP on another host: .*set SVC_PUBLIC_URL to its https:\/\/ address/)]);
  });

  it('does not warn behind an https public URL, or on loopback alone', async () => {
    t = await startTestEngine({ SVC_PUBLIC_URL: 'https://engine.example.test' });
    expect(warnings(t)).toEqual([]);
    await t.stop();
    t = await startTestEngine();
    expect(warnings(t)).toEqual([]);
  });
});
