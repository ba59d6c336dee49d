// What a request says about itself: headers as Koa reads them, its host, and the client's address
// behind trusted proxies. The Koa binding and the fast path both read requests through these.
import { BlockList, isIP, isIPv4 } from 'node:net';
import type { IncomingMessage } from 'node:http';

/** A request header as Koa's `ctx.get` reads it ('' when absent). */
export function headerOf(req: IncomingMessage, field: string): string {
  const name = field.toLowerCase();
  if (name === 'referer' || name === 'referrer') return (req.headers.referrer as string | undefined) || req.headers.referer || '';
  return (req.headers[name] as string | undefined) || '';
}

/** Koa's `ctx.host` (the app does not trust proxy headers). */
export function hostOf(req: IncomingMessage): string {
  let host = req.httpVersionMajor >= 2 ? headerOf(req, ':authority') : '';
  if (!host) host = headerOf(req, 'host');
  if (!host) return '';
  host = host.split(',', 1)[0]!.trim();
  if (host.includes('@')) {
    try {
      host = new URL(`http://${host}`).host;
    } catch {
      return '';
    }
  }
  return host;
}

/** Whether an address (already plain) is one of SVC_TRUSTED_PROXIES' addresses or ranges. */
export type TrustedProxies = (address: string) => boolean;

/** Entries are checked by loadConfig: addresses and CIDR ranges. */
export function trustedProxiesOf(entries: readonly string[]): TrustedProxies {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/') as [string, string | undefined];
    const family = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/** One matcher per configured list, shared by every bound route (built once, not per route). */
const trustedByList = new WeakMap<readonly string[], TrustedProxies>();
export function trustedProxiesFor(entries: readonly string[]): TrustedProxies {
  let trusted = trustedByList.get(entries);
  if (!trusted) trustedByList.set(entries, (trusted = trustedProxiesOf(entries)));
  return trusted;
}

/** An IPv4-mapped IPv6 address as its IPv4 form, so one client has one key. */
const plainAddress = (address: string) => (address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address);

/**
 * The address a request came from. Behind a proxy listed in SVC_TRUSTED_PROXIES, the nearest
 * X-Forwarded-For entry that is not itself a trusted proxy (entries further left are the client's
 * own say, which anyone can forge); otherwise the peer. Without it, every client behind a load
 * balancer shares its address, and one could lock all of them out of sign-in.
 */
export function clientAddress(req: IncomingMessage, trustedProxies: TrustedProxies): string {
  const peer = plainAddress(req.socket.remoteAddress ?? 'unknown');
  if (!trustedProxies(peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((h) => plainAddress(h.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!isIP(hop)) return peer; // a malformed entry: nothing left of it can be trusted
    if (!trustedProxies(hop)) return hop;
  }
  return peer;
}
