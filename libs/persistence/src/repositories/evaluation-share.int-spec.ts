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

/**
 * The calibration share, counted on the histogram of stored selected probabilities the stats trigger
 * keeps per version and question.
 */
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

  it("counts the version's answers below the threshold, by the domain rule", async () => {
    // Stored so far: 0.7; now 0.9, 0.6, 0.55 and 0.95 (rows written before selected probabilities
    // were stored are counted by the migration's backfill: dashboard-counters.int-spec).
    for (const probability of [0.9, 0.4, 0.45, 0.95]) await evaluations.insert(evaluation(tone(probability)));
    await evaluations.insert(evaluation({}));
    // Selected: 0.7, 0.9, 0.6, 0.55, 0.95; below 0.65: 0.6 and 0.55. The evaluation without answers is not counted.
    expect(
      await evaluations.shareBelowThreshold(owner.userId, owner.packVersionId, 'tone', 0.65),
    ).toBeCloseTo(2 / 5, 10);
    expect(
      await evaluations.shareBelowThreshold(owner.userId, owner.packVersionId, 'other', 0.65),
    ).toBeNull();
    expect(await evaluations.shareBelowThreshold(randomUUID(), owner.packVersionId, 'tone', 0.65)).toBeNull();
    expect(await evaluations.shareBelowThreshold(owner.userId, 'not-a-uuid', 'tone', 0.65)).toBeNull();
  });

  it('counts every answer type and every row of a multi-row insert, strictly below a four-decimal threshold', async () => {
    const other = newPackOwner();
    await dataSource.transaction((tx) => insertPackOwner((text, params) => tx.query(text, params), other));
    const own = (answers: Record<string, Answer>): NewEvaluation => ({ ...evaluation(answers), ...other });
    const rows = [
      // Selected: 0.29 (the chosen option), 1 (no probabilities), 0.7 (the highest score), 1 (none).
      own({ q: { type: 'choice', choice: 'a', probabilities: { a: 0.29, b: 0.71 } } }),
      own({ q: { type: 'choice', choice: 'a' } }),
      own({ q: { type: 'score', score: 2, probabilities: { '1': 0.3, '2': 0.7 } } }),
      own({ q: { type: 'score', score: 2 } }),
      own({ q: { type: 'boolean', probability: 0.71 } }),
      own({ q: { type: 'boolean', probability: 0.2999 } }),
    ];
    // Inserted in one turn, so they coalesce into a multi-row statement: the trigger counts each row once.
    await Promise.all(rows.map((row) => evaluations.insert(row)));
    // Selected, sorted: 0.29, 0.7, 0.7001, 0.71, 1, 1.
    const share = (threshold: number) =>
      evaluations.shareBelowThreshold(other.userId, other.packVersionId, 'q', threshold);
    expect(await share(0.29)).toBe(0);
    expect(await share(0.2901)).toBeCloseTo(1 / 6, 10);
    expect(await share(0.7)).toBeCloseTo(1 / 6, 10);
    expect(await share(0.7001)).toBeCloseTo(2 / 6, 10);
    expect(await share(0.71)).toBeCloseTo(3 / 6, 10);
    expect(await share(1)).toBeCloseTo(4 / 6, 10);
    // The version belongs to `other`: another user reads nothing.
    expect(await evaluations.shareBelowThreshold(owner.userId, other.packVersionId, 'q', 0.71)).toBeNull();
  });
});
