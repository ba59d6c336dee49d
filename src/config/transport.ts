// Whether the Engine is reached over plain HTTP from other machines: then sign-in passwords, CLI
// credentials and execution tokens cross the network readable by anyone on the path.
import { isIPv4 } from 'node:net';

/** Whether a host name or address names this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return isIPv4(v4) && v4.startsWith('127.');
}

/**
 * The warning to log at start when clients reach the Engine over plain HTTP from elsewhere: it
 * listens off loopback without an https SVC_PUBLIC_URL, or its SVC_PUBLIC_URL is http:// on
 * another host (a proxy that forwards without TLS). Undefined when neither is the case.
 */
export function plainHttpWarning(config: { host: string; publicUrl: string | undefined }): string | undefined {
  const fix = 'serve it through a TLS-terminating proxy and set SVC_PUBLIC_URL to its https:// address, or listen on 127.0.0.1 (SVC_HOST)';
  const publicUrl = config.publicUrl ? new URL(config.publicUrl) : undefined;
  if (publicUrl?.protocol === 'https:') return undefined;
  if (!isLoopbackHost(config.host)) {
    return `listening on ${config.host}, off loopback, over plain HTTP without an https SVC_PUBLIC_URL: sign-in passwords, CLI credentials and tokens cross the network unencrypted; ${fix}`;
  }
  if (publicUrl && !isLoopbackHost(publicUrl.hostname)) {
    return `SVC_PUBLIC_URL (${publicUrl.origin}) is plain HTTP on another host: sign-in passwords, CLI credentials and tokens cross the network unencrypted; ${fix}`;
  }
  return undefined;
}
