import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { Answer } from '@app/domain';
import { dataSourceOptions } from '../data-source-options.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { EvaluationInserts } from './evaluation-inserts.js';
import type { NewEvaluation } from './evaluation-rows.js';
import { EvaluationRepository } from './evaluation.repository.js';
import { insertPackOwner, newPackOwner } from '../../../../test/support/pack-owner.js';

/** The calibration share over rows with stored selected probabilities and rows written before them. */
describe('EvaluationRepository.shareBelowThreshold', () => {
  let dataSource: DataSource;
  let evaluations: EvaluationRepository;
  const owner = newPackOwner();

  beforeAll(async () => {
    dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 2 }),
    ).initialize();
    const sql = new PreparedSql(dataSource);
    evaluations = new EvaluationRepository(dataSource, new EvaluationInserts(sql), sql);
    await dataSource.transaction(async (tx) => {
      await insertPackOwner((text, params) => tx.query(text, params), owner);
    });
  });
  afterAll(() => dataSource.destroy());

  const evaluation = (answers: Record<string, Answer>): NewEvaluation => ({
    id: randomUUID(),
    ...owner,
    source: 'api',
    status: 'accept',
    redactedTicket: { subject: 's', customerMessage: 'm' },
    result: { status: 'accept', answers, reviewReasons: [], modelId: 'm', latencyMs: 1 },
    modelId: 'm',
    latencyMs: 1,
    inputTokens: 0,
    outputTokens: 0,
  });
  const tone = (probability: number): Record<string, Answer> => ({ tone: { type: 'boolean', probability } });

  it('stores each answer selected probability with the row', async () => {
    const stored = await evaluations.insert(evaluation(tone(0.3)));
    const found = await evaluations.findById(owner.userId, stored.id);
    expect(found?.selectedProbabilities).toEqual({ tone: 0.7 });
  });

  it('counts stored and older rows alike, by the domain rule', async () => {
    // Stored so far: 0.7; now 0.9 and 0.6 stored, and 0.55 and 0.95 as rows written before the column.
    await evaluations.insert(evaluation(tone(0.9)));
    await evaluations.insert(evaluation(tone(0.4)));
    for (const probability of [0.45, 0.95]) {
      const row = evaluation(tone(probability));
      await dataSource.query(
        `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id, latency_ms)
         VALUES ($1, $2, $3, $4, 'api', 'accept', '{}', $5, 'm', 1)`,
        [row.id, owner.userId, owner.packId, owner.packVersionId, JSON.stringify(row.result)],
      );
    }
    await evaluations.insert(evaluation({}));
    // Selected: 0.7, 0.9, 0.6 (stored), 0.55, 0.95 (computed); below 0.65: 0.6 and 0.55.
    expect(
      await evaluations.shareBelowThreshold(owner.userId, owner.packVersionId, 'tone', 0.65),
    ).toBeCloseTo(2 / 5, 10);
    expect(
      await evaluations.shareBelowThreshold(owner.userId, owner.packVersionId, 'other', 0.65),
    ).toBeNull();
    expect(await evaluations.shareBelowThreshold(randomUUID(), owner.packVersionId, 'tone', 0.65)).toBeNull();
  });
});
