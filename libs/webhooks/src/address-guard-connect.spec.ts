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
  isBlockedAddress,
  refusedRange,
  resolveAll,
  type Resolver,
} from '@app/outbound';
import { DeliveryClient } from './delivery-client.js';

// The guard at save time (every address of a name) and at connect time (the lookup and the
// connector the delivery client dials through). Which addresses are refused: address-guard.spec.ts.

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
