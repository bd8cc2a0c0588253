import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { newPackOwner, insertPackOwner } from '../../../../test/support/pack-owner.js';
import { dataSourceOptions } from '../data-source-options.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { QualityRepository } from './quality.repository.js';

/**
 * The per-day counters of a version hold no owner, so the repository scopes them in SQL by the
 * version's: its owner reads them, another user reads nothing.
 */
describe('QualityRepository counts', () => {
  let dataSource: DataSource;
  let quality: QualityRepository;
  const owner = newPackOwner();
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 2 }),
    ).initialize();
    quality = new QualityRepository(new PreparedSql(dataSource));
    await dataSource.transaction((tx) => insertPackOwner((sql, params) => tx.query(sql, params), owner));
    await dataSource.query(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id, latency_ms)
       VALUES ($1, $2, $3, $4, 'api', 'accept', '{}', $5, 'm', 1)`,
      [
        randomUUID(),
        owner.userId,
        owner.packId,
        owner.packVersionId,
        JSON.stringify({ answers: { q: { type: 'choice', choice: 'billing' } } }),
      ],
    );
  });

  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = $1`, [owner.userId]);
    await dataSource.destroy();
  });

  it('counts a version’s live evaluations for its owner only', async () => {
    const window = { versionId: owner.packVersionId, fromDay: today, toDay: today };
    expect(await quality.counts({ ...window, userId: owner.userId })).toMatchObject({ evaluations: 1 });
    expect(await quality.answers({ ...window, userId: owner.userId })).toEqual([
      { questionId: 'q', answer: 'billing', count: 1 },
    ]);
    const stranger = randomUUID();
    expect(await quality.counts({ ...window, userId: stranger })).toMatchObject({ evaluations: 0 });
    expect(await quality.answers({ ...window, userId: stranger })).toEqual([]);
  });
});
