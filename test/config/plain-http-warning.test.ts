// When clients reach the Engine over plain HTTP from other machines (issue 30 §8): listening off
// loopback without an https SVC_PUBLIC_URL, or an http:// SVC_PUBLIC_URL on another host. Checked
// on the function the Engine calls at start; test/engine/plain-http-warning.test.ts checks the log line.
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, plainHttpWarning } from '../../src/config/index.ts';

describe('the plain-HTTP warning', () => {
  it('is given when the Engine listens off loopback without an https SVC_PUBLIC_URL', () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.2', 'engine.internal']) {
      expect(plainHttpWarning({ host, publicUrl: undefined }), host).toMatch(/off loopback, over plain HTTP without an https SVC_PUBLIC_URL/);
      expect(plainHttpWarning({ host, publicUrl: 'http://engine.example.test' }), host).toMatch(/off loopback/);
      expect(plainHttpWarning({ host, publicUrl: 'https://engine.example.test' }), host).toBeUndefined();
    }
  });

  it('is given for an http:// SVC_PUBLIC_URL on another host, even when listening on loopback', () => {
    expect(plainHttpWarning({ host: '127.0.0.1', publicUrl: 'http://engine.example.test:8700' })).toMatch(/SVC_PUBLIC_URL \(http:\/\/engine\.example\.test:8700\) is plain HTTP on another host/);
    expect(plainHttpWarning({ host: '127.0.0.1', publicUrl: 'http://localhost:8700' })).toBeUndefined();
  });

  it('is not given on loopback', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) {
      expect(isLoopbackHost(host), host).toBe(true);
      expect(plainHttpWarning({ host, publicUrl: undefined }), host).toBeUndefined();
    }
    for (const host of ['0.0.0.0', '::', '128.0.0.1', 'localhost.example.com', '::ffff:10.0.0.1']) expect(isLoopbackHost(host), host).toBe(false);
  });
});
