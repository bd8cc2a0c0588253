import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { insertPackOwner, newPackOwner } from '../../../../test/support/pack-owner.js';
import { dataSourceOptions } from '../data-source-options.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { LabelRepository } from './label.repository.js';
import { QualityRepository } from './quality.repository.js';

const DAY_MS = 86_400_000;
const tone = { type: 'boolean', probability: 0.9 };
const dept = { type: 'choice', choice: 'billing' };
const agreed = { type: 'boolean', probability: 1 };
const sales = { type: 'choice', choice: 'sales' };

/**
 * What the quality and calibration reports read of a version's labels, from the copies of their
 * evaluations' facts (migration 1795751500000-label-evaluation-facts): the audit sample grouped into
 * draws, in a window of the evaluations' days, and every label with π only where the audit drew it.
 */
describe('the audit sample read from labels', () => {
  let dataSource: DataSource;
  let quality: QualityRepository;
  let labels: LabelRepository;
  const owner = newPackOwner();
  const stranger = newPackOwner();
  const now = Date.now();
  const day = (time: number) => new Date(time).toISOString().slice(0, 10);
  const window = { fromDay: day(now - 29 * DAY_MS), toDay: day(now) };

  const evaluation = async (
    status: string,
    answers: Record<string, unknown>,
    audit: { selected: boolean | null; probability: number | null },
    createdAt: number,
    labeled: Array<[questionId: string, answer: unknown]>,
  ) => {
    const id = randomUUID();
    await dataSource.query(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result,
                                model_id, latency_ms, audit_selected, audit_probability, labeled, created_at)
       VALUES ($1, $2, $3, $4, 'api', $5, '{}', $6, 'm', 1, $7, $8, true, $9)`,
      [
        id,
        owner.userId,
        owner.packId,
        owner.packVersionId,
        status,
        JSON.stringify({ answers }),
        audit.selected,
        audit.probability,
        new Date(createdAt),
      ],
    );
    for (const [questionId, answer] of labeled) {
      await dataSource.query(
        `INSERT INTO labels (id, user_id, evaluation_id, question_id, answer, agreement)
         VALUES ($1, $2, $3, $4, $5, true)`,
        [randomUUID(), owner.userId, id, questionId, JSON.stringify(answer)],
      );
    }
  };

  beforeAll(async () => {
    dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 2 }),
    ).initialize();
    const sql = new PreparedSql(dataSource);
    quality = new QualityRepository(sql);
    labels = new LabelRepository(dataSource, sql);
    for (const someone of [owner, stranger]) {
      await dataSource.transaction((tx) =>
        insertPackOwner((text, params) => tx.query(text, params), someone),
      );
    }
    // Drawn 40 days ago, in the version's history but not the 30-day window.
    await evaluation('accept', { tone }, { selected: true, probability: 0.5 }, now - 40 * DAY_MS, [
      ['tone', agreed],
    ]);
    // Drawn, two labels on one evaluation: one draw.
    await evaluation('accept', { tone, dept }, { selected: true, probability: 0.5 }, now - 2 * DAY_MS, [
      ['tone', agreed],
      ['dept', sales],
    ]);
    // A drawn review, labeled on a question the judge did not answer.
    await evaluation('review', { tone }, { selected: true, probability: 0.25 }, now - DAY_MS, [
      ['tone', agreed],
      ['dept', sales],
    ]);
    // Not drawn, though π was stored: never in the sample.
    await evaluation('accept', { tone }, { selected: false, probability: 0.1 }, now - DAY_MS / 2, [
      ['tone', agreed],
    ]);
  });

  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [[owner.userId, stranger.userId]]);
    await dataSource.destroy();
  });

  it('groups a draw’s labels, with the judge’s answer to each labeled question, in the window or the whole history', async () => {
    const recent = [
      {
        status: 'accept',
        auditProbability: 0.5,
        answers: { tone, dept },
        labels: { tone: agreed, dept: sales },
      },
      { status: 'review', auditProbability: 0.25, answers: { tone }, labels: { tone: agreed, dept: sales } },
    ];
    expect(await quality.labeledDraws(owner.userId, owner.packVersionId, window)).toEqual(recent);
    expect(await quality.labeledDraws(owner.userId, owner.packVersionId)).toEqual([
      { status: 'accept', auditProbability: 0.5, answers: { tone }, labels: { tone: agreed } },
      ...recent,
    ]);
  });

  it('gives every label of the version, oldest evaluation first, with π only where the audit drew its evaluation', async () => {
    expect(await labels.listForVersion(owner.userId, owner.packVersionId)).toEqual([
      { questionId: 'tone', model: tone, answer: agreed, auditProbability: 0.5 },
      { questionId: 'dept', model: dept, answer: sales, auditProbability: 0.5 },
      { questionId: 'tone', model: tone, answer: agreed, auditProbability: 0.5 },
      { questionId: 'dept', model: null, answer: sales, auditProbability: 0.25 },
      { questionId: 'tone', model: tone, answer: agreed, auditProbability: 0.25 },
      { questionId: 'tone', model: tone, answer: agreed, auditProbability: null },
    ]);
  });

  it('reads nothing of another user’s version', async () => {
    expect(await quality.labeledDraws(stranger.userId, owner.packVersionId)).toEqual([]);
    expect(await labels.listForVersion(stranger.userId, owner.packVersionId)).toEqual([]);
  });
});
