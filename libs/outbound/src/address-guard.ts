import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { buildConnector } from 'undici';

/** Resolves a host name to every address, as `dns.lookup` with `all: true` does. */
export type Resolver = (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname, options) => dns.lookup(hostname, { ...options, all: true });

/** The well-known NAT64 prefix (RFC 6052): the last 32 bits are the IPv4 address reached. */
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** IPv4-compatible addresses (RFC 4291, deprecated): never a public destination today. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
/** All global unicast IPv6 space allocated so far; anything outside it is not a public host. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * `host` as an IP literal in the form the HTTP client dials (WHATWG URL parsing, as undici does:
 * `0x7f.1` and `2130706433` become `127.0.0.1`, `::127.0.0.1` becomes `::7f00:1`), or null when it
 * is a host name. ipaddr.js alone would read `::a.b.c.d` as IPv4-mapped, so it only sees this form.
 */
export function ipLiteral(host: string): string | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (!/^[0-9a-fx.:]+$/i.test(bare)) return null;
  let hostname: string;
  try {
    hostname = new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname;
  } catch {
    return null;
  }
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return isIP(literal) ? literal : null;
}

/**
 * The range that refuses `address`, or null when it is public unicast, the only kind completions
 * go to. IPv4-mapped and well-known NAT64 addresses are judged by the IPv4 address inside them;
 * 6to4, Teredo, IPv4-compatible and local-use NAT64 (64:ff9b:1::/48) are refused whatever they embed.
 */
export function refusedRange(address: string): string | null {
  const literal = ipLiteral(address);
  if (literal === null) return 'not an IP address';
  const ip = ipaddr.parse(literal);
  if (ip instanceof ipaddr.IPv4) return ipv4Refusal(ip);
  if (ip.isIPv4MappedAddress()) return ipv4Refusal(ip.toIPv4Address());
  if (ip.match(NAT64)) return ipv4Refusal(new ipaddr.IPv4(ip.toByteArray().slice(12)));
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
  return ip.match(GLOBAL_UNICAST) ? null : 'reserved';
}

function ipv4Refusal(ip: ipaddr.IPv4): string | null {
  const range = ip.range();
  return range === 'unicast' ? null : range;
}

export function isBlockedAddress(address: string): boolean {
  return refusedRange(address) !== null;
}

function refusal(address: string, range: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`refusing private address ${address} (${range})`), { code: 'EBLOCKED' });
}

/**
 * Every address a URL host stands for: the literal itself (no DNS), or every address the name
 * resolves to. A name with no address is an error: `dns.lookup('')` answers with an empty list.
 */
export async function resolveAll(hostname: string, resolve: Resolver = systemResolver): Promise<string[]> {
  const literal = ipLiteral(hostname);
  if (literal !== null) return [literal];
  if (hostname === '') throw new Error('empty host');
  const addresses = await resolve(hostname, {});
  if (addresses.length === 0) throw new Error(`${hostname} has no address`);
  return addresses.map((a) => a.address);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for the HTTP client that refuses blocked addresses at connect time, so the address
 * checked is the address connected to (a DNS answer that changes between check and use gets nowhere).
 */
export function createGuardedLookup(resolve: Resolver = systemResolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, options).then(
      (addresses) => {
        for (const { address } of addresses) {
          const range = refusedRange(address);
          if (range !== null) return callback(refusal(address, range), []);
        }
        const [first] = addresses;
        if (!first)
          return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
        if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

export const guardedLookup = createGuardedLookup();

/**
 * The HTTP client's connector: a host name is checked by `lookup` on what it resolves to, but an
 * IP literal never reaches `lookup`, so it is checked here, before anything is dialled.
 */
export function guardedConnector(
  connect: buildConnector.connector = buildConnector({ lookup: guardedLookup }),
): buildConnector.connector {
  return (options, callback) => {
    const { hostname } = options;
    const range = isIP(hostname) || ipLiteral(hostname) !== null ? refusedRange(hostname) : null;
    if (range === null) return connect(options, callback);
    // Asynchronously, as a failed dial would be.
    process.nextTick(() => callback(refusal(hostname, range), null));
  };
}
