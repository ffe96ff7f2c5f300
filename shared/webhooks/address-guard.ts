import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

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

type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

function parseAddress(text: string): IpAddress | undefined {
  // The zone ("%eth0") only picks an interface; it does not change which address is meant.
  const address = text.replace(/%.*$/, '');
  // `isIP` first: ipaddr.js also accepts legacy forms such as "0x7f.1" that are no plain address.
  return isIP(address) === 0 ? undefined : ipaddr.parse(address);
}

const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');

/** Mapped, NAT64 and 6to4 addresses reach an IPv4 host, so they are judged as that host. */
function embeddedIPv4OrSelf(address: IpAddress): IpAddress {
  if (address instanceof ipaddr.IPv4) return address;
  const bytes = address.toByteArray();
  if (address.isIPv4MappedAddress() || address.match(NAT64_WELL_KNOWN)) return ipaddr.fromByteArray(bytes.slice(12));
  if (address.match(SIX_TO_FOUR)) return ipaddr.fromByteArray(bytes.slice(2, 6));
  return address;
}

// ipaddr.js keeps the IANA special-purpose registries; every range it names is unreachable,
// internal or not a real host (169.254.169.254 and fd00:ec2::254 metadata services included),
// except these anycast public services.
const PUBLIC_IPV4_RANGES = new Set(['unicast', 'as112', 'amt']);
// Only 2000::/3 is allocated as global unicast; ipaddr.js calls ::2 or 4000:: "unicast" too.
const GLOBAL_UNICAST_IPV6 = ipaddr.parseCIDR('2000::/3');

/** False for anything that is not a plain IP address, so that unknown input fails closed. */
export function isPublicAddress(ip: string): boolean {
  const parsed = parseAddress(ip);
  if (parsed === undefined) return false;
  const address = embeddedIPv4OrSelf(parsed);
  if (address instanceof ipaddr.IPv4) return PUBLIC_IPV4_RANGES.has(address.range());
  // Teredo's IPv4 is obfuscated and its relay is not ours to trust: it stays refused as "teredo".
  return address.match(GLOBAL_UNICAST_IPV6) && address.range() === 'unicast';
}

export function isLoopbackAddress(ip: string): boolean {
  const parsed = parseAddress(ip);
  return parsed !== undefined && embeddedIPv4OrSelf(parsed).range() === 'loopback';
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
