import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { insertPackOwner, newPackOwner, type PackOwner } from '../../../../test/support/pack-owner.js';
import { LabelEvaluationFacts1795751500000 } from './1795751500000-label-evaluation-facts.js';
import { migrationDatabase } from '../../../../test/support/migration-database.js';

/** What a label copies of its evaluation, as the reports read it. */
const COPIES = `question_id AS "questionId", pack_version_id AS "packVersionId", judge_answer AS "judgeAnswer",
  evaluation_status AS "evaluationStatus", audit_selected AS "auditSelected", audit_probability AS "auditProbability",
  to_char(evaluation_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS "evaluationCreatedAt"`;

/**
 * The migration on labels written before it (backfilled from their evaluations), then the trigger
 * it installs on new ones; run again (down, rows, up) inside a transaction that is rolled back, so
 * the shared test database keeps its schema.
 */
describe('migration LabelEvaluationFacts', () => {
  const database = migrationDatabase();

  const evaluation = async (
    runner: QueryRunner,
    owner: PackOwner,
    status: string,
    audit: { selected: boolean | null; probability: number | null },
    createdAt: string,
  ): Promise<string> => {
    const id = randomUUID();
    await runner.query(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result,
                                model_id, latency_ms, audit_selected, audit_probability, created_at)
       VALUES ($1, $2, $3, $4, 'api', $5, '{}', $6, 'm', 5, $7, $8, $9)`,
      [
        id,
        owner.userId,
        owner.packId,
        owner.packVersionId,
        status,
        JSON.stringify({ answers: { tone: { type: 'boolean', probability: 0.9 } } }),
        audit.selected,
        audit.probability,
        createdAt,
      ],
    );
    return id;
  };

  const label = (runner: QueryRunner, owner: PackOwner, evaluationId: string, questionId: string) =>
    runner.query(
      `INSERT INTO labels (id, user_id, evaluation_id, question_id, answer, agreement)
       VALUES (gen_random_uuid(), $1, $2, $3, '{"type":"boolean","probability":1}', true)`,
      [owner.userId, evaluationId, questionId],
    );

  const copies = (runner: QueryRunner, evaluationId: string) =>
    runner.query(`SELECT ${COPIES} FROM labels WHERE evaluation_id = $1 ORDER BY question_id`, [
      evaluationId,
    ]);

  it('backfills each label with its evaluation’s facts, then fills new labels on insert', async () => {
    await database.inRolledBackTransaction(async (runner) => {
      const migration = new LabelEvaluationFacts1795751500000();
      await migration.down(runner);
      const owner = newPackOwner();
      await insertPackOwner((sql, params) => runner.query(sql, params), owner);
      const drawn = await evaluation(
        runner,
        owner,
        'accept',
        { selected: true, probability: 0.25 },
        '2026-11-01 10:00:00+00',
      );
      // Before: a label on a question the judge answered, and one on a question it did not.
      await label(runner, owner, drawn, 'tone');
      await label(runner, owner, drawn, 'dept');

      await migration.up(runner);
      const facts = {
        packVersionId: owner.packVersionId,
        evaluationStatus: 'accept',
        auditSelected: true,
        auditProbability: 0.25,
        evaluationCreatedAt: '2026-11-01 10:00',
      };
      expect(await copies(runner, drawn)).toEqual([
        { questionId: 'dept', judgeAnswer: null, ...facts },
        { questionId: 'tone', judgeAnswer: { type: 'boolean', probability: 0.9 }, ...facts },
      ]);

      // After: the trigger fills a new label, here on a review the audit did not draw.
      const review = await evaluation(
        runner,
        owner,
        'review',
        { selected: null, probability: null },
        '2026-11-02 08:30:00+00',
      );
      await label(runner, owner, review, 'tone');
      expect(await copies(runner, review)).toEqual([
        {
          questionId: 'tone',
          packVersionId: owner.packVersionId,
          judgeAnswer: { type: 'boolean', probability: 0.9 },
          evaluationStatus: 'review',
          auditSelected: null,
          auditProbability: null,
          evaluationCreatedAt: '2026-11-02 08:30',
        },
      ]);
      // A label moved to another question (the service never does) takes that question's answer.
      await runner.query(`UPDATE labels SET question_id = 'dept' WHERE evaluation_id = $1`, [review]);
      expect((await copies(runner, review))[0]).toMatchObject({ questionId: 'dept', judgeAnswer: null });

      // The reports read the labels' version index; the evaluations' audit index stays for the old
      // release's replicas during a rollout.
      const indexes = await runner.query(
        `SELECT indexname FROM pg_indexes
          WHERE indexname IN ('labels_pack_version_idx', 'evaluations_audit_labeled_idx') ORDER BY 1`,
      );
      expect(indexes).toEqual([
        { indexname: 'evaluations_audit_labeled_idx' },
        { indexname: 'labels_pack_version_idx' },
      ]);
    });
  });
});
