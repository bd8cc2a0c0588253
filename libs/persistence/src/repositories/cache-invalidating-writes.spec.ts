import { describe, expect, it, jest } from '@jest/globals';
import type { DataSource } from 'typeorm';
import type { AccessTokenLookup } from '../cache/access-token.lookup.js';
import type { ApiKeyLookup } from '../cache/api-key.lookup.js';
import type { CalibrationMapCache } from '../cache/calibration-map.cache.js';
import type { EndpointLookup } from '../cache/endpoint.lookup.js';
import type { LiveVersionCache } from '../cache/live-version.cache.js';
import type { PreparedSql } from '../statements/prepared-sql.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { CalibrationMapRepository } from './calibration-map.repository.js';
import { OAuthRepository } from './oauth.repository.js';
import { PackRepository } from './pack.repository.js';
import { WebhookRepository } from './webhook.repository.js';

const PACK = '11111111-1111-4111-8111-111111111111';
const KEY = '22222222-2222-4222-8222-222222222222';
const ENDPOINT = '33333333-3333-4333-8333-333333333333';

/**
 * The writes that change what a hot-path cache holds invalidate it in the same method, after the
 * write: a caller cannot reach the write without the invalidation. `affected` is what Postgres
 * reports for the write (0: nothing matched, and there is nothing to invalidate).
 */
function database(affected: number, rows: unknown[] = []) {
  const query = jest.fn((sql: string) =>
    Promise.resolve(/^\s*(UPDATE|DELETE)/.test(sql) ? [rows, affected] : rows),
  );
  const typeorm = {
    update: jest.fn(() => Promise.resolve({ affected })),
    delete: jest.fn(() => Promise.resolve({ affected })),
    findOneBy: jest.fn(() => Promise.resolve(null)),
  };
  const source = {
    query,
    getRepository: () => typeorm,
    transaction: (work: (tx: unknown) => Promise<unknown>) => work({ query, getRepository: () => typeorm }),
  };
  // Named statements: every call goes through `statement`, as PreparedSql's helpers go through `query`.
  const statement = jest.fn((..._: unknown[]) => Promise.resolve({ rows, affected }));
  const sql = {
    query: statement,
    rows: async (...args: unknown[]) => (await statement(...args)).rows,
    first: async (...args: unknown[]) => (await statement(...args)).rows[0] ?? null,
    affected: async (...args: unknown[]) => (await statement(...args)).affected,
  };
  return {
    source: source as unknown as DataSource,
    query,
    typeorm,
    sql: sql as unknown as PreparedSql,
    statement,
  };
}

/** The cache's invalidation method, which must run after the write it follows. */
function invalidation() {
  return jest.fn((..._: string[]) => Promise.resolve());
}

type Called = { mock: { invocationCallOrder: number[] } };

function invalidatedAfter(invalidate: Called, write: Called): void {
  expect(Math.min(...invalidate.mock.invocationCallOrder)).toBeGreaterThan(
    Math.min(...write.mock.invocationCallOrder),
  );
}

describe('PackRepository invalidates the live version', () => {
  function packs(affected: number, rows: unknown[] = []) {
    const db = database(affected, rows);
    const invalidate = invalidation();
    const repository = new PackRepository(db.source, { invalidate } as unknown as LiveVersionCache, db.sql);
    return { repository, invalidate, ...db };
  }

  const publication = {
    freezeVersionId: 'draft',
    newDraft: { id: 'next', copiedFrom: 'draft' },
    liveVersionId: 'draft',
    draftVersionId: 'next',
  };

  it('when a version is published', async () => {
    const { repository, invalidate, statement } = packs(1, [{ draftVersionId: 'draft' }]);
    await repository.publish('u', PACK, () => publication);
    expect(invalidate).toHaveBeenCalledWith('u', PACK);
    invalidatedAfter(invalidate, statement);
  });

  it('not when the publication is refused: nothing is written', async () => {
    const { repository, invalidate, statement } = packs(1, [{ draftVersionId: 'draft' }]);
    const refuse = () => {
      throw new Error('refused');
    };
    await expect(repository.publish('u', PACK, refuse)).rejects.toThrow('refused');
    expect(statement).toHaveBeenCalledTimes(1); // the lock only
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('when the pack is deleted', async () => {
    const { repository, invalidate, statement } = packs(1);
    expect(await repository.delete('u', PACK)).toBe(true);
    expect(invalidate).toHaveBeenCalledWith('u', PACK);
    invalidatedAfter(invalidate, statement);
  });

  it('when its audit settings change (the judge reads them with the live version)', async () => {
    const { repository, invalidate, statement } = packs(1, [{ auditRate: 0.1, auditStrategy: 'uniform' }]);
    const settings = { rate: 0.1, strategy: 'uniform' } as const;
    expect(await repository.updateAuditSettings('u', PACK, settings)).toEqual(settings);
    expect(invalidate).toHaveBeenCalledWith('u', PACK);
    invalidatedAfter(invalidate, statement);
  });

  it('not when there was no such pack', async () => {
    const { repository, invalidate } = packs(0);
    expect(await repository.publish('u', PACK, () => publication)).toBeNull();
    expect(await repository.delete('u', PACK)).toBe(false);
    expect(await repository.updateAuditSettings('u', PACK, { rate: 1, strategy: 'uniform' })).toBeNull();
    expect(invalidate).not.toHaveBeenCalled();
  });
});

describe('ApiKeyRepository invalidates the key', () => {
  function keys(affected: number) {
    const db = database(affected);
    const invalidate = invalidation();
    const repository = new ApiKeyRepository(db.source, { invalidate } as unknown as ApiKeyLookup, db.sql);
    return { repository, invalidate, ...db };
  }

  it('when its secret is replaced', async () => {
    const { repository, invalidate, typeorm } = keys(1);
    await repository.replaceSecret('u', KEY, 'tj_new', 'hash');
    expect(invalidate).toHaveBeenCalledWith(KEY);
    invalidatedAfter(invalidate, typeorm.update);
  });

  it('when it is revoked', async () => {
    const { repository, invalidate, typeorm } = keys(1);
    expect(await repository.revoke('u', KEY)).toBe(true);
    expect(invalidate).toHaveBeenCalledWith(KEY);
    invalidatedAfter(invalidate, typeorm.update);
  });

  it('not when there was no such active key', async () => {
    const { repository, invalidate } = keys(0);
    expect(await repository.replaceSecret('u', KEY, 'tj_new', 'hash')).toBeNull();
    expect(await repository.revoke('u', KEY)).toBe(false);
    expect(invalidate).not.toHaveBeenCalled();
  });
});

describe('WebhookRepository invalidates the endpoint', () => {
  const row = { id: ENDPOINT, userId: 'u', url: 'https://x', secret: 's', requireInboundSignature: false };

  function webhooks(affected: number, rows: unknown[] = []) {
    const db = database(affected, rows);
    const invalidate = invalidation();
    const repository = new WebhookRepository(db.source, db.sql, {
      invalidate,
    } as unknown as EndpointLookup);
    return { repository, invalidate, ...db };
  }

  it('when it is saved or replaced (a new secret)', async () => {
    const { repository, invalidate, statement } = webhooks(1, [row]);
    await repository.saveEndpoint('u', {
      id: ENDPOINT,
      url: 'https://x',
      secret: 's',
      requireInboundSignature: false,
    });
    expect(invalidate).toHaveBeenCalledWith('u');
    invalidatedAfter(invalidate, statement);
  });

  it('when it is deleted, and not when there was none', async () => {
    const deleted = webhooks(1);
    expect(await deleted.repository.deleteEndpoint('u', ENDPOINT)).toBe(true);
    expect(deleted.invalidate).toHaveBeenCalledWith('u');
    invalidatedAfter(deleted.invalidate, deleted.typeorm.delete);
    const missing = webhooks(0);
    expect(await missing.repository.deleteEndpoint('u', ENDPOINT)).toBe(false);
    expect(missing.invalidate).not.toHaveBeenCalled();
  });
});

describe("OAuthRepository invalidates a grant's access tokens", () => {
  function oauth(rows: unknown[] = []) {
    const db = database(rows.length, rows);
    const invalidateGrant = invalidation();
    const repository = new OAuthRepository(
      db.source,
      { invalidateGrant } as unknown as AccessTokenLookup,
      db.sql,
    );
    return { repository, invalidateGrant, ...db };
  }

  it('when one of its tokens is deleted', async () => {
    const { repository, invalidateGrant, typeorm } = oauth();
    await repository.deleteToken('hash', 'g1');
    expect(invalidateGrant).toHaveBeenCalledWith('g1');
    invalidatedAfter(invalidateGrant, typeorm.delete);
  });

  it('when the grant is revoked', async () => {
    const { repository, invalidateGrant, statement } = oauth();
    await repository.revokeGrant('g1');
    expect(invalidateGrant).toHaveBeenCalledWith('g1');
    invalidatedAfter(invalidateGrant, statement);
  });

  it("when a client's grants are revoked: each of them", async () => {
    const { repository, invalidateGrant, statement } = oauth([{ id: 'g1' }, { id: 'g2' }]);
    expect(await repository.revokeClientGrants('u', 'client')).toEqual(['g1', 'g2']);
    expect(invalidateGrant.mock.calls).toEqual([['g1'], ['g2']]);
    invalidatedAfter(invalidateGrant, statement);
  });
});

describe("CalibrationMapRepository invalidates the pack's maps", () => {
  it('when a fit is stored', async () => {
    const db = database(2);
    const invalidate = invalidation();
    const repository = new CalibrationMapRepository(db.sql, { invalidate } as unknown as CalibrationMapCache);
    const fit = { questionId: 'department', fingerprint: 'f', method: null, labels: 3, points: null };
    await repository.saveFits('u', PACK, [fit], new Date());
    expect(invalidate).toHaveBeenCalledWith('u', PACK);
    invalidatedAfter(invalidate, db.statement);
  });
});
