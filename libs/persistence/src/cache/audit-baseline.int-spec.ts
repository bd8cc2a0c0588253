import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { insertPackOwner, newPackOwner } from '../../../../test/support/pack-owner.js';
import { dataSourceOptions } from '../data-source-options.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { AuditBaselineCache } from './audit-baseline.cache.js';

/**
 * The uncertainty strategy's ū (evaluations.meanAuditUncertainty): the mean of the u each draw stored,
 * and, for rows drawn before u was stored, u from their selected probabilities as a draw without a
 * calibration map computes it, √(mean of 1 − p).
 */
describe('AuditBaselineCache: ū from the stored draws', () => {
  let dataSource: DataSource;
  let baselines: AuditBaselineCache;
  const owner = newPackOwner();

  /** One live evaluation of the owner's pack with this status, draw and stored u. */
  const insert = (
    status: string,
    selectedProbabilities: Record<string, number>,
    auditProbability: number | null,
    auditUncertainty: number | null,
  ) =>
    dataSource.query(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result,
                                model_id, latency_ms, input_tokens, output_tokens, selected_probabilities,
                                audit_probability, audit_selected, audit_uncertainty)
       VALUES (gen_random_uuid(), $1, $2, $3, 'api', $4, '{"customerMessage":"m"}',
               jsonb_build_object('status', $4::text, 'answers', '{}'::jsonb, 'reviewReasons', '[]'::jsonb,
                                  'modelId', 'm', 'latencyMs', 1),
               'm', 1, 1, 1, $5, $6::float8, $6::float8 IS NOT NULL, $7::float8)`,
      [
        owner.userId,
        owner.packId,
        owner.packVersionId,
        status,
        JSON.stringify(selectedProbabilities),
        auditProbability,
        auditUncertainty,
      ],
    );

  beforeAll(async () => {
    dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 2 }),
    ).initialize();
    baselines = new AuditBaselineCache(new PreparedSql(dataSource));
    await dataSource.transaction((tx) => insertPackOwner((text, params) => tx.query(text, params), owner));
    // Stored u = 0.5: the selected probability is not read.
    await insert('accept', { a: 0.99 }, 0.1, 0.5);
    // Drawn before u was stored: √(mean of 1 − p) = √((0.1 + 0.22) / 2) = √0.16 = 0.4.
    await insert('reject', { a: 0.9, b: 0.78 }, 0.1, null);
    // Drawn before u was stored, without answers: 0.
    await insert('accept', {}, 0.1, null);
    // Not in ū: a review item, and an automatic decision drawn while the audit was off.
    await insert('review', { a: 0.5 }, 0.1, 1);
    await insert('accept', { a: 0.5 }, null, null);
  });
  afterAll(() => dataSource.destroy());

  it('averages the stored u, and u from the selected probabilities where none was stored', async () => {
    // (0.5 + 0.4 + 0) / 3 = 0.3
    expect(await baselines.meanUncertainty(owner.userId, owner.packId)).toBeCloseTo(0.3, 12);
  });
});
