import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { buildConnector } from 'undici';
import { loadConfig } from '@app/config';
import {
  createGuardedLookup,
  guardedConnector,
  guardedLookup,
  ipLiteral,
  isBlockedAddress,
  refusedRange,
  resolveAll,
  type Resolver,
} from './address-guard.js';
import { DeliveryClient } from './delivery-client.js';

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '[2606:4700:4700::1111]',
  // Mapped and well-known NAT64 forms reach exactly the embedded address, which is public here.
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::808:808',
];

const REFUSED: Array<[string, string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'linkLocal'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.255', 'carrierGradeNat'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.0.1', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['192.88.99.1', 'reserved'],
  ['192.31.196.1', 'as112'],
  ['192.52.193.1', 'amt'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  ['fe80::1', 'linkLocal'],
  ['febf::1', 'linkLocal'],
  ['fec0::1', 'deprecatedSiteLocal'],
  ['ff02::1', 'multicast'],
  ['100::1', 'discard'],
  ['2001:db8::1', 'reserved'],
  ['2001:2::1', 'benchmarking'],
  ['4000::1', 'reserved'],
  // IPv4-mapped: judged by the embedded address.
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'linkLocal'],
  // Well-known NAT64: judged by the embedded address.
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::a9fe:a9fe', 'linkLocal'],
  ['64:ff9b::a00:1', 'private'],
  // Refused whatever they embed: local-use NAT64, 6to4, Teredo, IPv4-compatible, IPv4-translated.
  ['64:ff9b:1::808:808', 'rfc6052'],
  ['64:ff9b:1::7f00:1', 'rfc6052'],
  ['2002:7f00:1::', '6to4'],
  ['2002:808:808::1', '6to4'],
  ['2001::', 'teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ['::127.0.0.1', 'ipv4Compatible'],
  ['::7f00:1', 'ipv4Compatible'],
  ['::8.8.8.8', 'ipv4Compatible'],
  ['::ffff:0:7f00:1', 'rfc6145'],
];

describe('refusedRange', () => {
  it.each(PUBLIC)('allows public unicast %s', (address) => {
    expect(refusedRange(address)).toBeNull();
    expect(isBlockedAddress(address)).toBe(false);
  });

  it.each(REFUSED)('refuses %s as %s', (address, range) => {
    expect(refusedRange(address)).toBe(range);
    expect(isBlockedAddress(address)).toBe(true);
  });

  it('reads alternative spellings as the HTTP client dials them', () => {
    for (const spelling of ['2130706433', '0x7f.1', '127.1', '0177.0.0.1', '0x7f000001', '127.0.0.1.']) {
      expect(ipLiteral(spelling)).toBe('127.0.0.1');
      expect(refusedRange(spelling)).toBe('loopback');
    }
    expect(refusedRange('0xa9.0xfe.0xa9.0xfe')).toBe('linkLocal');
    expect(refusedRange('[::ffff:127.0.0.1]')).toBe('loopback');
    expect(refusedRange(new URL('http://2130706433:8080/x').hostname)).toBe('loopback');
    expect(refusedRange(new URL('http://[::127.0.0.1]/x').hostname)).toBe('ipv4Compatible');
    expect(ipLiteral('::127.0.0.1')).toBe('::7f00:1');
  });

  it('refuses what is not one plain IP address: names, an empty host, zone ids, URL tricks', () => {
    for (const host of [
      '',
      '[]',
      'localhost',
      'example.com',
      'fe80::1%eth0',
      '[fe80::1%25eth0]',
      '8.8.8.8/@127.0.0.1',
    ])
      expect(refusedRange(host)).toBe('not an IP address');
    expect(ipLiteral('face.cafe')).toBeNull();
    expect(ipLiteral('[2606:4700:4700::1111]')).toBe('2606:4700:4700::1111');
  });
});

const answers = (...addresses: string[]): LookupAddress[] =>
  addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

function fakeResolver(table: Record<string, LookupAddress[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const found = table[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };
  return Object.assign(resolve, { asked });
}

describe('resolveAll (save time)', () => {
  it('takes an IP literal as it is, without DNS', async () => {
    const resolve = fakeResolver({});
    expect(await resolveAll('8.8.8.8', resolve)).toEqual(['8.8.8.8']);
    expect(await resolveAll('[2606:4700:4700::1111]', resolve)).toEqual(['2606:4700:4700::1111']);
    expect(await resolveAll('0x7f.1', resolve)).toEqual(['127.0.0.1']);
    expect(resolve.asked).toEqual([]);
  });

  it('returns every address of a name, so one private answer among public ones is caught', async () => {
    const resolve = fakeResolver({
      'hooks.example': answers('93.184.216.34', '2606:4700:4700::1111'),
      'mixed.example': answers('8.8.8.8', '10.0.0.7'),
      'empty.example': [],
    });
    const good = await resolveAll('hooks.example', resolve);
    expect(good).toEqual(['93.184.216.34', '2606:4700:4700::1111']);
    expect(good.some(isBlockedAddress)).toBe(false);
    expect((await resolveAll('mixed.example', resolve)).some(isBlockedAddress)).toBe(true);
    await expect(resolveAll('empty.example', resolve)).rejects.toThrow('no address');
    await expect(resolveAll('missing.example', resolve)).rejects.toThrow('ENOTFOUND');
    await expect(resolveAll('', resolve)).rejects.toThrow('empty host');
  });

  it('resolves localhost with the system resolver to loopback addresses only', async () => {
    const addresses = await resolveAll('localhost');
    expect(addresses).toContain('127.0.0.1');
    expect(addresses.every(isBlockedAddress)).toBe(true);
  });
});

type LookupResult = { error: NodeJS.ErrnoException | null; address: unknown; family?: number };

function lookupWith(
  lookup: ReturnType<typeof createGuardedLookup>,
  hostname: string,
  all: boolean,
): Promise<LookupResult> {
  return new Promise((resolve) =>
    lookup(hostname, { all }, (error, address, family) => resolve({ error, address, family })),
  );
}

describe('guarded lookup (connect time, host names)', () => {
  const lookup = createGuardedLookup(
    fakeResolver({
      'hooks.example': answers('93.184.216.34', '2606:4700:4700::1111'),
      'rebound.example': answers('93.184.216.34', '169.254.169.254'),
      'mapped.example': answers('::ffff:10.0.0.1'),
      'empty.example': [],
    }),
  );

  it('passes public answers on, as a list or as one address', async () => {
    expect(await lookupWith(lookup, 'hooks.example', true)).toEqual({
      error: null,
      address: answers('93.184.216.34', '2606:4700:4700::1111'),
      family: undefined,
    });
    expect(await lookupWith(lookup, 'hooks.example', false)).toEqual({
      error: null,
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('refuses a name if any answer is private, IPv4-mapped private included', async () => {
    for (const [name, address] of [
      ['rebound.example', '169.254.169.254'],
      ['mapped.example', '::ffff:10.0.0.1'],
    ]) {
      const { error } = await lookupWith(lookup, name, true);
      expect(error).toMatchObject({
        code: 'EBLOCKED',
        message: `refusing private address ${address} (${refusedRange(address)})`,
      });
    }
    expect((await lookupWith(lookup, 'empty.example', true)).error).toMatchObject({ code: 'ENOTFOUND' });
    expect((await lookupWith(lookup, 'missing.example', true)).error).toMatchObject({ code: 'ENOTFOUND' });
  });

  it('refuses localhost with the system resolver', async () => {
    const { error } = await lookupWith(guardedLookup, 'localhost', true);
    expect(error).toMatchObject({
      code: 'EBLOCKED',
      message: expect.stringMatching(/^refusing private address/),
    });
  });
});

describe('guarded connector (connect time, IP literals)', () => {
  function connectTo(hostname: string) {
    const dialled: string[] = [];
    const base: buildConnector.connector = (options) => dialled.push(options.hostname);
    return new Promise<{ dialled: string[]; error: Error | null }>((resolve) => {
      guardedConnector(base)({ hostname, protocol: 'http:', port: '80' }, (...args) =>
        resolve({ dialled, error: args[0] }),
      );
      // A dial hands over to the base connector, which never answers here.
      setTimeout(() => resolve({ dialled, error: null }), 20);
    });
  }

  it('refuses private literals without dialling', async () => {
    for (const hostname of [
      '127.0.0.1',
      '::ffff:7f00:1',
      '::1',
      '169.254.169.254',
      '64:ff9b::7f00:1',
      'fe80::1%eth0',
    ]) {
      const { dialled, error } = await connectTo(hostname);
      expect(dialled).toEqual([]);
      expect(error).toMatchObject({ code: 'EBLOCKED' });
    }
  });

  it('dials public literals and hands host names to the guarded lookup', async () => {
    for (const hostname of ['8.8.8.8', '2606:4700:4700::1111', 'hooks.example']) {
      expect(await connectTo(hostname)).toEqual({ dialled: [hostname], error: null });
    }
  });
});

describe('DeliveryClient against a receiver on loopback', () => {
  let server: Server;
  let port: number;
  let received = 0;
  const SECRET = 's'.repeat(40);

  beforeAll(async () => {
    server = createServer((_req, res) => {
      received++;
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('in production never connects to it, whichever way the URL spells the address', async () => {
    const client = new DeliveryClient(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: SECRET }));
    try {
      for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '2130706433', '0x7f.1', 'localhost']) {
        const result = await client.post(`http://${host}:${port}/hooks`, '{}', {});
        expect(result).toEqual({
          statusCode: null,
          error: expect.stringMatching(/refusing private address/),
        });
      }
      expect(received).toBe(0);
    } finally {
      await client.onModuleDestroy();
    }
  });

  it('delivers to it when private URLs are allowed (so the receiver was reachable)', async () => {
    const client = new DeliveryClient(
      loadConfig({ NODE_ENV: 'production', SESSION_SECRET: SECRET, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
    );
    try {
      expect(await client.post(`http://127.0.0.1:${port}/hooks`, '{}', {})).toEqual({
        statusCode: 204,
        error: null,
      });
      expect(received).toBe(1);
    } finally {
      await client.onModuleDestroy();
    }
  });
});
