import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { PreparedSql } from '../statements/prepared-sql.js';
import {
  AUDIT_BASELINE_DECISIONS,
  AUDIT_BASELINE_TTL_MS,
  AUDIT_BASELINE_UNKNOWN_TTL_MS,
  AuditBaselineCache,
} from './audit-baseline.cache.js';

const PACK = '11111111-1111-4111-8111-111111111111';

function cache(answer: () => Promise<{ meanUncertainty: number | null } | null>) {
  const first = jest.fn((_statement: unknown, _params: unknown) => answer());
  return { cache: new AuditBaselineCache({ first } as unknown as PreparedSql), first };
}

describe('AuditBaselineCache', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('reads one bounded query per pack and shares it until it expires', async () => {
    const { cache: baselines, first } = cache(() => Promise.resolve({ meanUncertainty: 0.12 }));
    const [a, b] = await Promise.all([
      baselines.meanUncertainty('u', PACK),
      baselines.meanUncertainty('u', PACK),
    ]);
    expect([a, b]).toEqual([0.12, 0.12]);
    expect(first).toHaveBeenCalledTimes(1);
    expect(first.mock.calls[0][1]).toEqual({ userId: 'u', packId: PACK, limit: AUDIT_BASELINE_DECISIONS });
    jest.setSystemTime(AUDIT_BASELINE_TTL_MS - 1);
    await baselines.meanUncertainty('u', PACK);
    expect(first).toHaveBeenCalledTimes(1);
    jest.setSystemTime(AUDIT_BASELINE_TTL_MS + 1);
    await baselines.meanUncertainty('u', PACK);
    expect(first).toHaveBeenCalledTimes(2);
  });

  it('keeps an unknown ū (no drawn decisions yet) for a shorter time', async () => {
    const { cache: baselines, first } = cache(() => Promise.resolve({ meanUncertainty: null }));
    expect(await baselines.meanUncertainty('u', PACK)).toBeNull();
    jest.setSystemTime(AUDIT_BASELINE_UNKNOWN_TTL_MS + 1);
    await baselines.meanUncertainty('u', PACK);
    expect(first).toHaveBeenCalledTimes(2);
  });

  it('answers null on a failed read, and does not keep it', async () => {
    let fail = true;
    const { cache: baselines, first } = cache(() =>
      fail ? Promise.reject(new Error('connection lost')) : Promise.resolve({ meanUncertainty: 0.3 }),
    );
    expect(await baselines.meanUncertainty('u', PACK)).toBeNull();
    fail = false;
    expect(await baselines.meanUncertainty('u', PACK)).toBe(0.3);
    expect(first).toHaveBeenCalledTimes(2);
  });

  it('answers a malformed pack id with null and no query', async () => {
    const { cache: baselines, first } = cache(() => Promise.resolve({ meanUncertainty: 0.3 }));
    expect(await baselines.meanUncertainty('u', 'not-a-uuid')).toBeNull();
    expect(first).not.toHaveBeenCalled();
  });
});
