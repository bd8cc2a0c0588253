import { lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local, CGNAT, metadata and other non-public ranges. */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Every address the host name resolves to (or the literal address). */
export function resolveAll(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return Promise.resolve([host]);
  return new Promise((resolve, reject) =>
    lookup(host, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );
}

/**
 * A `lookup` for the HTTP client that refuses blocked addresses at connect time, so the address
 * checked is the address connected to (a DNS answer that changes between check and use gets nowhere).
 */
export function guardedLookup(
  hostname: string,
  options: object,
  callback: (
    error: NodeJS.ErrnoException | null,
    address: string | Array<{ address: string; family: number }>,
    family?: number,
  ) => void,
): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const blocked = addresses.find((a) => isBlockedAddress(a.address));
    if (blocked) {
      return callback(
        Object.assign(new Error(`refusing private address ${blocked.address}`), { code: 'EBLOCKED' }),
        '',
      );
    }
    callback(null, addresses);
  });
}
