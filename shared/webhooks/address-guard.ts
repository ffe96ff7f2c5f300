import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';

/**
 * SSRF defence for webhook delivery. Receiver URLs are customer input, so a delivery must never
 * reach the sender's own network: loopback (the Lambda Runtime API listens there), VPC ranges,
 * or the instance metadata service. Checking the URL at registration is not enough, because a
 * name can later resolve elsewhere (DNS rebinding); `guardedLookup` re-checks every address that
 * is actually about to be connected to.
 */

export interface AddressPolicy {
  /** For local development only: lets http/https reach 127.0.0.0/8, ::1 and localhost. */
  allowLoopback?: boolean;
}

interface Cidr {
  version: 4 | 6;
  network: bigint;
  prefix: number;
}

interface IpAddress {
  version: 4 | 6;
  value: bigint;
}

const IPV4_BITS = 32;
const IPV6_BITS = 128;

function parseAddress(text: string): IpAddress | undefined {
  // The zone ("%eth0") only picks an interface; it does not change which address is meant.
  const address = text.replace(/%.*$/, '');
  switch (isIP(address)) {
    case 4:
      return { version: 4, value: parseIPv4(address) };
    case 6:
      return { version: 6, value: parseIPv6(address) };
    default:
      return undefined;
  }
}

/** Expects text that `isIP` accepted as IPv4. */
function parseIPv4(address: string): bigint {
  return address.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

/** Expects text that `isIP` accepted as IPv6, including "::" and a dotted IPv4 tail. */
function parseIPv6(address: string): bigint {
  const [head = '', tail] = address.split('::');
  const headGroups = toHextets(head);
  const tailGroups = tail === undefined ? [] : toHextets(tail);
  const zeroGroups: number[] = new Array(8 - headGroups.length - tailGroups.length).fill(0);
  return [...headGroups, ...zeroGroups, ...tailGroups].reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

function toHextets(groups: string): number[] {
  if (groups === '') return [];
  return groups.split(':').flatMap((group) => {
    if (!group.includes('.')) return [Number.parseInt(group, 16)];
    const ipv4 = Number(parseIPv4(group));
    return [ipv4 >>> 16, ipv4 & 0xffff];
  });
}

function cidr(notation: string): Cidr {
  const [address = '', prefix = ''] = notation.split('/');
  const parsed = parseAddress(address);
  if (parsed === undefined) throw new Error(`Invalid CIDR ${notation}`);
  return { version: parsed.version, network: parsed.value, prefix: Number(prefix) };
}

function inCidr(address: IpAddress, range: Cidr): boolean {
  if (address.version !== range.version) return false;
  const hostBits = BigInt((address.version === 4 ? IPV4_BITS : IPV6_BITS) - range.prefix);
  return address.value >> hostBits === range.network >> hostBits;
}

// IANA special-purpose registries; everything here is unreachable, internal or not a real host.
const NON_PUBLIC_IPV4 = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, including the 169.254.169.254 metadata service
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, including 255.255.255.255 broadcast
].map(cidr);

// Only 2000::/3 is allocated as global unicast; that one test excludes ::1, ::, fc00::/7 (ULA,
// incl. the fd00:ec2::254 metadata service), fe80::/10, fec0::/10, ff00::/8, 100::/64 and the rest.
const GLOBAL_UNICAST_IPV6 = cidr('2000::/3');
const NON_PUBLIC_GLOBAL_IPV6 = [
  '2001::/23', // IETF protocol assignments: Teredo, benchmarking, ORCHID
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4: tunnels to an embedded IPv4 address, refused rather than decoded
  '3fff::/20', // documentation
].map(cidr);

// These reach an IPv4 host, so they are judged as that host.
const IPV4_MAPPED = cidr('::ffff:0:0/96');
const NAT64_WELL_KNOWN = cidr('64:ff9b::/96');

const LOOPBACK_IPV4 = cidr('127.0.0.0/8');
const LOOPBACK_IPV6 = cidr('::1/128');

function embeddedIPv4OrSelf(address: IpAddress): IpAddress {
  if (inCidr(address, IPV4_MAPPED) || inCidr(address, NAT64_WELL_KNOWN)) {
    return { version: 4, value: address.value & 0xffff_ffffn };
  }
  return address;
}

/** False for anything that is not a plain IP address, so that unknown input fails closed. */
export function isPublicAddress(ip: string): boolean {
  const parsed = parseAddress(ip);
  if (parsed === undefined) return false;
  const address = embeddedIPv4OrSelf(parsed);
  if (address.version === 4) return !NON_PUBLIC_IPV4.some((range) => inCidr(address, range));
  return inCidr(address, GLOBAL_UNICAST_IPV6) && !NON_PUBLIC_GLOBAL_IPV6.some((range) => inCidr(address, range));
}

export function isLoopbackAddress(ip: string): boolean {
  const parsed = parseAddress(ip);
  if (parsed === undefined) return false;
  const address = embeddedIPv4OrSelf(parsed);
  return inCidr(address, LOOPBACK_IPV4) || inCidr(address, LOOPBACK_IPV6);
}

function isAllowedAddress(ip: string, allowLoopback: boolean): boolean {
  return isPublicAddress(ip) || (allowLoopback && isLoopbackAddress(ip));
}

/** RFC 6761 reserves `localhost` and every name under it for loopback. */
function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

export type WebhookUrlRejection = 'invalid_url' | 'unsupported_scheme' | 'credentials_in_url' | 'non_public_address';

export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; reason: WebhookUrlRejection };

/**
 * Registration-time check. Host names are accepted here and judged by `guardedLookup` when
 * connecting; IP-literal hosts are judged now. Node never calls `lookup` for an IP-literal host,
 * so the delivery worker must run this check again before each send.
 */
export function checkWebhookUrl(url: string, { allowLoopback = false }: AddressPolicy = {}): WebhookUrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'invalid_url' };
  }
  // The URL parser has already normalised numeric forms such as 2130706433 or 0x7f.1 to dotted quads.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  const isLoopbackHost = isLocalhostName(host) || isLoopbackAddress(host);
  const isAllowedScheme =
    parsed.protocol === 'https:' || (parsed.protocol === 'http:' && allowLoopback && isLoopbackHost);
  if (!isAllowedScheme) return { ok: false, reason: 'unsupported_scheme' };
  // Credentials in the URL would be stored, logged and shown in plain text.
  if (parsed.username !== '' || parsed.password !== '') return { ok: false, reason: 'credentials_in_url' };

  const isReachable = isLocalhostName(host) ? allowLoopback : isIP(host) === 0 || isAllowedAddress(host, allowLoopback);
  return isReachable ? { ok: true, url: parsed.href } : { ok: false, reason: 'non_public_address' };
}

export class AddressNotPublicError extends Error {
  readonly code = 'EADDRNOTPUBLIC';

  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`Refusing to connect to ${hostname}: it resolves to ${address}, which is not a public address`);
    this.name = 'AddressNotPublicError';
  }
}

/** The `dns.lookup` call with `{ all: true }`; injectable so tests need no real DNS. */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export interface GuardedLookupOptions extends AddressPolicy {
  resolveAll?: ResolveAll;
}

const systemResolveAll: ResolveAll = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/**
 * A `lookup` for `net.connect`, `http(s).request` or an `http(s).Agent`. It refuses the name when
 * any of its addresses is not public, rather than dropping the bad ones, because a name that mixes
 * public and internal answers is itself suspicious.
 */
export function guardedLookup({
  allowLoopback = false,
  resolveAll = systemResolveAll,
}: GuardedLookupOptions = {}): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, []);
      const refused = addresses.find(({ address }) => !isAllowedAddress(address, allowLoopback));
      if (refused !== undefined) return callback(new AddressNotPublicError(hostname, refused.address), []);
      const [first] = addresses;
      if (first === undefined) return callback(notFoundError(hostname), []);
      // Node's happy-eyeballs connect asks for every address; older call sites expect just one.
      if (options.all === true) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

function notFoundError(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
}
