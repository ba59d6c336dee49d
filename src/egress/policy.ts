// Which addresses the Engine may open a connection to on a provider's behalf. Link-local and cloud
// metadata addresses never; private, loopback and other non-public ranges only when SVC_EGRESS_ALLOW
// lists them; everything else (the public internet) always. Node's net.BlockList does the matching:
// it also matches an IPv4 rule against the IPv4-mapped IPv6 form (::ffff:127.0.0.1).
import { BlockList, isIP } from 'node:net';

/** Why an address is refused: `metadata` (link-local and cloud metadata: always) or `private` (unless allowed). */
export type EgressRange = 'metadata' | 'private';

/** Link-local addresses and the cloud instance-metadata services, never reached whatever the allow-list. */
const METADATA: readonly string[] = [
  '169.254.0.0/16', // IPv4 link-local: AWS, GCP, Azure, OCI, OpenStack and DigitalOcean metadata (169.254.169.254), ECS task metadata (169.254.170.2)
  'fe80::/10', // IPv6 link-local
  'fd00:ec2::254/128', // AWS instance metadata over IPv6
  '100.100.100.200/32', // Alibaba Cloud metadata
  '192.0.0.192/32', // Oracle Cloud metadata (older instances)
];

/** Ranges that are not the public internet: refused unless SVC_EGRESS_ALLOW lists them. */
const PRIVATE: readonly string[] = [
  '0.0.0.0/8', // "this network": 0.0.0.0 reaches the host itself
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT, also VPN overlays
  '127.0.0.0/8',
  '172.16.0.0/12',
  '192.0.0.0/24', // IETF protocol assignments
  '192.168.0.0/16',
  '198.18.0.0/15', // benchmarking
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and the broadcast address
  '::/96', // unspecified (::), loopback (::1) and the deprecated IPv4-compatible form
  'fc00::/7', // unique local
  'fec0::/10', // site-local (deprecated)
  'ff00::/8', // multicast
  '64:ff9b:1::/48', // local-use NAT64
];

/** IPv6 forms that carry an IPv4 address inside: NAT64's well-known prefix and 6to4. */
const EMBEDDING: readonly ((address: string, prefix: number) => [string, number])[] = [
  (address, prefix) => [`64:ff9b::${address}`, 96 + prefix],
  (address, prefix) => {
    const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
    const hex = (x: number, y: number) => ((x << 8) | y).toString(16);
    return [`2002:${hex(a, b)}:${hex(c, d)}::`, 16 + prefix];
  },
];

/** Ranges as `address/prefix` or a bare address (checked by src/config when they come from a setting); `embedded`: IPv4 ones also inside IPv6 (EMBEDDING). */
function blockList(ranges: readonly string[], embedded: boolean): BlockList {
  const list = new BlockList();
  for (const entry of ranges) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    const prefix = bits === undefined ? (family === 'ipv4' ? 32 : 128) : Number(bits);
    list.addSubnet(address, prefix, family);
    if (embedded && family === 'ipv4') {
      for (const embed of EMBEDDING) list.addSubnet(...embed(address, prefix), 'ipv6');
    }
  }
  return list;
}

const metadata = blockList(METADATA, true);
const nonPublic = blockList(PRIVATE, true);

export class EgressPolicy {
  /** SVC_EGRESS_ALLOW as given (CIDR ranges or addresses), for the start-up log. */
  readonly allowed: readonly string[];
  private readonly allow: BlockList;

  /** `allow`: the ranges of SVC_EGRESS_ALLOW, checked by the config (src/config) before they get here. */
  constructor(allow: readonly string[] = []) {
    this.allowed = allow;
    this.allow = blockList(allow, false);
  }

  /** Why a connection to `address` (an IP literal) is refused, or undefined when it may be opened. */
  refusal(address: string): EgressRange | undefined {
    const version = isIP(address);
    if (version === 0) return 'private'; // not an address: nothing to check it against, so nothing is opened
    const family = version === 4 ? 'ipv4' : 'ipv6';
    if (metadata.check(address, family)) return 'metadata';
    if (nonPublic.check(address, family) && !this.allow.check(address, family)) return 'private';
    return undefined;
  }
}

/** A connection the policy refused before it was opened: nothing was sent. */
export class EgressRefusedError extends Error {
  override name = 'EgressRefusedError';
  readonly code = 'ENGINE_EGRESS_REFUSED';
  readonly host: string;
  readonly address: string;
  readonly range: EgressRange;

  constructor(host: string, address: string, range: EgressRange) {
    const where = host === address ? address : `${host} (${address})`;
    super(
      range === 'metadata'
        ? `the Engine never connects to ${where}: a link-local or cloud metadata address`
        : `the Engine does not connect to ${where}, a private, loopback or reserved address, unless SVC_EGRESS_ALLOW lists its range`,
    );
    this.host = host;
    this.address = address;
    this.range = range;
  }
}
