// The egress policy at connect time: an undici connector that checks the address each connection is
// about to open, after DNS, so a name that resolves (or later re-resolves) to a refused address is
// refused then, and nothing is sent. A literal address is checked before connecting; a name through
// the `lookup` hook net.connect calls, which sees every address it will try.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { EgressRefusedError, type EgressPolicy } from './policy.ts';

export interface EgressConnectorOptions {
  /** Connect timeout, in milliseconds (undici's `connect.timeout`). */
  timeoutMs: number;
  /** How names are resolved (default: the system's, dns.lookup). */
  resolve?: (hostname: string, options: LookupOptions & { all: true }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;
}

/** A `lookup` for net.connect that answers only addresses the policy admits, or fails naming the first it refuses. */
function checkedLookup(policy: EgressPolicy, resolve: NonNullable<EgressConnectorOptions['resolve']>): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      // Every address must pass: one a name also resolves to could be the one net.connect tries.
      for (const { address } of addresses) {
        const range = policy.refusal(address);
        if (range) return callback(new EgressRefusedError(hostname, address, range), '');
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} resolved to no address`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}

/** An undici connector (an Agent's `connect`) that opens only connections the policy admits. */
export function egressConnector(policy: EgressPolicy, options: EgressConnectorOptions): buildConnector.connector {
  const resolve = options.resolve ?? ((hostname, lookupOptions, callback) => dnsLookup(hostname, lookupOptions, callback));
  const connect = buildConnector({ timeout: options.timeoutMs, lookup: checkedLookup(policy, resolve) });
  return (target, callback) => {
    // undici hands over the URL's host without brackets; the WHATWG parser already made 0x7f.1 and 2130706433 dotted quads.
    if (isIP(target.hostname)) {
      const range = policy.refusal(target.hostname);
      if (range) return callback(new EgressRefusedError(target.hostname, target.hostname, range), null);
    }
    connect(target, callback);
  };
}
