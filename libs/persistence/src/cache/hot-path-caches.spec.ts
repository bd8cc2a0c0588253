import { describe, expect, it, jest } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { InvalidatedCache, type CacheInvalidation, type InvalidatedCacheOptions } from '@app/cache';
import { questionFingerprint, type PackDocument } from '@app/domain';
import type { PreparedSql } from '../statements/prepared-sql.js';
import { OAuthTokenEntity } from '../entities/oauth.entity.js';
import { AccessTokenLookup } from './access-token.lookup.js';
import { ApiKeyLookup } from './api-key.lookup.js';
import { CalibrationMapCache } from './calibration-map.cache.js';
import { EndpointLookup } from './endpoint.lookup.js';
import { HOT_PATH_CACHE } from './hot-path-cache.js';
import { LiveVersionCache } from './live-version.cache.js';
import { PackVersionLookup } from './pack-version.lookup.js';

const PACK = '11111111-1111-4111-8111-111111111111';
const OTHER_PACK = '22222222-2222-4222-8222-222222222222';

/**
 * CacheInvalidation as seen by one subscribed process: caches are live, and an invalidation drops
 * the tag here and records what it would publish to the other processes.
 */
function invalidation() {
  const registered = new Map<string, InvalidatedCacheOptions>();
  const published: Array<[cache: string, tag: string]> = [];
  const fake = {
    register: (name: string, options: InvalidatedCacheOptions) => {
      registered.set(name, options);
      return new InvalidatedCache(name, options, () => true);
    },
    invalidate: (cache: InvalidatedCache<unknown>, tag: string) => {
      cache.drop(tag);
      published.push([cache.name, tag]);
      return Promise.resolve();
    },
  };
  return { fake: fake as unknown as CacheInvalidation, registered, published };
}

/** A DataSource whose TypeORM repositories answer `findOneBy` from `rows(entity, where)`. */
function dataSource(rows: (entity: unknown, where: Record<string, unknown>) => unknown) {
  const findOneBy = jest.fn((entity: unknown, where: Record<string, unknown>) =>
    Promise.resolve(rows(entity, where) ?? null),
  );
  const source = {
    getRepository: (entity: unknown) => ({
      findOneBy: (where: Record<string, unknown>) => findOneBy(entity, where),
    }),
    query: jest.fn(() => Promise.resolve([] as unknown[])),
  };
  return { source: source as unknown as DataSource, findOneBy, query: source.query };
}

describe('LiveVersionCache', () => {
  function setup(rows: (packId: string) => unknown[]) {
    const query = jest.fn((_: unknown, params: { userId: string; packId: string }) =>
      Promise.resolve(rows(params.packId)[0] ?? null),
    );
    const events = invalidation();
    const cache = new LiveVersionCache(events.fake, { first: query } as unknown as PreparedSql);
    return { cache, query, ...events };
  }
  const live = (packId: string) => [
    { liveVersionId: `v-${packId}`, document: { questions: [] }, auditRate: 0.1, auditStrategy: 'uniform' },
  ];

  it('is the cache `live-versions` with the hot-path bounds', () => {
    expect(setup(live).registered).toEqual(new Map([['live-versions', HOT_PATH_CACHE]]));
  });

  it('reads a live version through once, then serves it from memory', async () => {
    const { cache, query } = setup(live);
    const expected = {
      found: true,
      packId: PACK,
      versionId: `v-${PACK}`,
      document: { questions: [] },
      audit: { rate: 0.1, strategy: 'uniform' },
    };
    expect(await cache.find('u', PACK)).toEqual(expected);
    expect(await cache.find('u', PACK)).toEqual(expected);
    expect(query).toHaveBeenCalledTimes(1);
    expect(query.mock.calls[0][1]).toEqual({ userId: 'u', packId: PACK });
  });

  it('keeps neither a missing pack nor one without a live version', async () => {
    const { cache, query } = setup((packId) =>
      packId === PACK ? [] : [{ liveVersionId: null, document: null }],
    );
    for (let i = 0; i < 2; i++) {
      expect(await cache.find('u', PACK)).toEqual({ found: false, reason: 'pack_not_found' });
      expect(await cache.find('u', OTHER_PACK)).toEqual({ found: false, reason: 'no_live_version' });
    }
    expect(query).toHaveBeenCalledTimes(4);
  });

  it('answers a malformed pack id as not found without a query', async () => {
    const { cache, query } = setup(live);
    expect(await cache.find('u', 'not-a-uuid')).toEqual({ found: false, reason: 'pack_not_found' });
    expect(query).not.toHaveBeenCalled();
  });

  it("invalidate drops that user's pack here and publishes it, and keeps the others", async () => {
    const { cache, query, published } = setup(live);
    await cache.find('u', PACK);
    await cache.find('u', OTHER_PACK);
    await cache.invalidate('u', PACK);
    expect(published).toEqual([['live-versions', `u:${PACK}`]]);
    await cache.find('u', PACK);
    await cache.find('u', OTHER_PACK);
    expect(query).toHaveBeenCalledTimes(3);
  });
});

describe('ApiKeyLookup', () => {
  const key = (id: string) => ({ id, revokedAt: null });

  function setup(keyOf: (secretHash: string) => unknown) {
    const db = dataSource((_, where) => keyOf(where.secretHash as string));
    const events = invalidation();
    return { lookup: new ApiKeyLookup(db.source, events.fake), ...db, ...events };
  }

  it('is the cache `api-keys` with the hot-path bounds, reading active keys only', async () => {
    const { lookup, registered, findOneBy } = setup(() => key('k1'));
    expect(registered).toEqual(new Map([['api-keys', HOT_PATH_CACHE]]));
    await lookup.findActive('hash');
    expect(findOneBy.mock.calls[0][1]).toMatchObject({ secretHash: 'hash', revokedAt: expect.anything() });
  });

  it('reads a key through once, and does not keep an unknown secret (a new key needs no invalidation)', async () => {
    const { lookup, findOneBy } = setup((hash) => (hash === 'known' ? key('k1') : null));
    expect(await lookup.findActive('known')).toEqual(key('k1'));
    expect(await lookup.findActive('known')).toEqual(key('k1'));
    expect(await lookup.findActive('unknown')).toBeNull();
    expect(await lookup.findActive('unknown')).toBeNull();
    expect(findOneBy).toHaveBeenCalledTimes(3);
  });

  it('invalidate(keyId) drops the key under every secret hash it was found by, here and elsewhere', async () => {
    const { lookup, findOneBy, published } = setup((hash) => key(hash === 'other' ? 'k2' : 'k1'));
    for (const hash of ['old', 'new', 'other']) await lookup.findActive(hash);
    await lookup.invalidate('k1');
    expect(published).toEqual([['api-keys', 'k1']]);
    for (const hash of ['old', 'new', 'other']) await lookup.findActive(hash);
    expect(findOneBy).toHaveBeenCalledTimes(5);
  });
});

describe('EndpointLookup', () => {
  const endpoint = { id: 'e1', userId: 'u', url: 'https://x', secret: 's', requireInboundSignature: true };

  function setup(rows: unknown[]) {
    // The entity carries its creation time too; the lookup keeps the endpoint's fields only.
    const db = dataSource(() => (rows[0] ? { ...rows[0], createdAt: new Date() } : null));
    const events = invalidation();
    return { lookup: new EndpointLookup(db.source, events.fake), ...db, ...events };
  }

  it('is the cache `webhook-endpoints` with the hot-path bounds', () => {
    expect(setup([]).registered).toEqual(new Map([['webhook-endpoints', HOT_PATH_CACHE]]));
  });

  it('reads an endpoint through once, and keeps its absence too', async () => {
    const present = setup([endpoint]);
    const expected = { id: 'e1', userId: 'u', url: 'https://x', secret: 's', requireInboundSignature: true };
    expect(await present.lookup.find('u')).toEqual(expected);
    expect(await present.lookup.find('u')).toEqual(expected);
    expect(present.findOneBy).toHaveBeenCalledTimes(1);
    const absent = setup([]);
    expect(await absent.lookup.find('u')).toBeNull();
    expect(await absent.lookup.find('u')).toBeNull();
    expect(absent.findOneBy).toHaveBeenCalledTimes(1);
  });

  it('findFresh always reads past the cache', async () => {
    const { lookup, findOneBy } = setup([endpoint]);
    await lookup.find('u');
    expect((await lookup.findFresh('u'))?.id).toBe('e1');
    expect(findOneBy).toHaveBeenCalledTimes(2);
  });

  it("invalidate(userId) drops the user's endpoint here and publishes it", async () => {
    const { lookup, findOneBy, published } = setup([endpoint]);
    await lookup.find('u');
    await lookup.invalidate('u');
    expect(published).toEqual([['webhook-endpoints', 'u']]);
    await lookup.find('u');
    expect(findOneBy).toHaveBeenCalledTimes(2);
  });
});

describe('AccessTokenLookup', () => {
  const grants: Record<string, { id: string; revokedAt: Date | null }> = {
    g1: { id: 'g1', revokedAt: null },
    g2: { id: 'g2', revokedAt: null },
    revoked: { id: 'revoked', revokedAt: new Date() },
  };

  function setup() {
    const expiresAt = new Date('2030-01-01T00:00:00Z');
    // A token's hash names its grant: `g1-a` belongs to grant g1.
    const db = dataSource((entity, where) =>
      entity === OAuthTokenEntity
        ? { grantId: String(where.tokenHash).split('-')[0], scopes: ['judge'], expiresAt }
        : grants[where.id as string],
    );
    const events = invalidation();
    return { lookup: new AccessTokenLookup(db.source, events.fake), expiresAt, ...db, ...events };
  }

  it('is the cache `oauth-access-tokens` with the hot-path bounds, reading access tokens only', async () => {
    const { lookup, registered, findOneBy } = setup();
    expect(registered).toEqual(new Map([['oauth-access-tokens', HOT_PATH_CACHE]]));
    await lookup.findActive('g1-a');
    expect(findOneBy.mock.calls[0]).toEqual([OAuthTokenEntity, { tokenHash: 'g1-a', kind: 'access' }]);
  });

  it('reads a token of a live grant through once, and does not keep one of a revoked grant', async () => {
    const { lookup, findOneBy, expiresAt } = setup();
    const active = { grant: grants.g1, scopes: ['judge'], expiresAt };
    expect(await lookup.findActive('g1-a')).toEqual(active);
    expect(await lookup.findActive('g1-a')).toEqual(active);
    expect(await lookup.findActive('revoked-a')).toBeNull();
    expect(await lookup.findActive('revoked-a')).toBeNull();
    // Token then grant: one pair of reads for the kept token, two for the refused one.
    expect(findOneBy).toHaveBeenCalledTimes(6);
  });

  it("invalidateGrant drops every token of that grant here and publishes it, and keeps the others'", async () => {
    const { lookup, findOneBy, published } = setup();
    for (const hash of ['g1-a', 'g1-b', 'g2-a']) await lookup.findActive(hash);
    await lookup.invalidateGrant('g1');
    expect(published).toEqual([['oauth-access-tokens', 'g1']]);
    for (const hash of ['g1-a', 'g1-b', 'g2-a']) await lookup.findActive(hash);
    expect(findOneBy).toHaveBeenCalledTimes(10);
  });
});

describe('PackVersionLookup', () => {
  const version = (id: string, published: boolean) => ({
    id,
    userId: 'u',
    publishedAt: published ? new Date() : null,
  });

  function setup() {
    const db = dataSource((_, where) => version(where.id as string, where.id !== OTHER_PACK));
    return { lookup: new PackVersionLookup(db.source), ...db };
  }

  it('keeps a published version, answering only its owner, and reads a draft afresh each time', async () => {
    const { lookup, findOneBy } = setup();
    expect((await lookup.find('u', PACK))?.id).toBe(PACK);
    expect((await lookup.find('u', PACK))?.id).toBe(PACK);
    expect(await lookup.find('someone else', PACK)).toBeNull();
    expect((await lookup.find('u', OTHER_PACK))?.publishedAt).toBeNull();
    expect((await lookup.find('u', OTHER_PACK))?.publishedAt).toBeNull();
    expect(findOneBy.mock.calls.map(([, where]) => where)).toEqual([
      { id: PACK, userId: 'u' },
      { id: OTHER_PACK, userId: 'u' },
      { id: OTHER_PACK, userId: 'u' },
    ]);
    expect(await lookup.find('u', 'not-a-uuid')).toBeNull();
    expect(findOneBy).toHaveBeenCalledTimes(3);
  });

  it('keeps 500 published versions at most, dropping the oldest', async () => {
    const { lookup, findOneBy } = setup();
    const ids = Array.from(
      { length: 501 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    for (const id of ids) await lookup.find('u', id);
    await lookup.find('u', ids[500]);
    expect(findOneBy).toHaveBeenCalledTimes(501);
    await lookup.find('u', ids[0]);
    expect(findOneBy).toHaveBeenCalledTimes(502);
  });
});

describe('CalibrationMapCache', () => {
  const question = (id: string, instructions: string) => ({
    type: 'boolean' as const,
    id,
    name: id,
    instructions,
    criteria: {},
    review: { minSelectedProbability: 0.6 },
  });
  const document: PackDocument = { questions: [question('a', 'A?'), question('b', 'B?')] };
  const fittedAt = new Date('2026-11-20T10:00:00Z');
  const points = [{ selectedProbability: 0, calibrated: 0.5 }];
  const row = (questionId: string, fingerprint: string) => ({
    questionId,
    fingerprint,
    method: 'platt',
    labels: 12,
    points,
    fittedAt,
  });

  function setup(rows: unknown[]) {
    const query = jest.fn((..._: unknown[]) => Promise.resolve(rows));
    const events = invalidation();
    const cache = new CalibrationMapCache(events.fake, { rows: query } as unknown as PreparedSql);
    return { cache, query, ...events };
  }

  it('is the cache `calibration-maps` with the hot-path bounds', () => {
    expect(setup([]).registered).toEqual(new Map([['calibration-maps', HOT_PATH_CACHE]]));
  });

  it("keeps the maps whose question id and wording match the version's, read once per version", async () => {
    const a = questionFingerprint(document.questions[0]);
    const b = questionFingerprint(document.questions[1]);
    // `b` under a's wording (another question, same text) and a stale wording of `b` do not apply.
    const { cache, query } = setup([row('a', a), row('b', a), row('b', 'old wording')]);
    const maps = await cache.find('u', PACK, 'v1', document);
    expect([...maps]).toEqual([['a', { method: 'platt', labels: 12, points, fittedAt }]]);
    await cache.find('u', PACK, 'v1', document);
    expect(query).toHaveBeenCalledTimes(1);
    expect(query.mock.calls[0][1]).toEqual({ userId: 'u', packId: PACK, fingerprints: [a, b] });
  });

  it("invalidate drops every version of that user's pack, here and elsewhere", async () => {
    const { cache, query, published } = setup([]);
    await cache.find('u', PACK, 'v1', document);
    await cache.find('u', PACK, 'v2', document);
    await cache.find('u', OTHER_PACK, 'v3', document);
    await cache.invalidate('u', PACK);
    expect(published).toEqual([['calibration-maps', `u:${PACK}`]]);
    for (const [pack, version] of [
      [PACK, 'v1'],
      [PACK, 'v2'],
      [OTHER_PACK, 'v3'],
    ])
      await cache.find('u', pack, version, document);
    expect(query).toHaveBeenCalledTimes(5);
  });

  it('reads nothing for a document without questions', async () => {
    const { cache, query } = setup([]);
    expect((await cache.find('u', PACK, 'v1', { questions: [] })).size).toBe(0);
    expect(query).not.toHaveBeenCalled();
  });
});
