import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { insertPackOwner, newPackOwner, type PackOwner } from '../../../../test/support/pack-owner.js';
import { DashboardCounters1795751400000 } from './1795751400000-dashboard-counters.js';
import { migrationDatabase } from '../../../../test/support/migration-database.js';

/**
 * The migration on evaluations stored before it, some with their selected probabilities and some
 * from before those were stored, then the trigger it installs; run again (down, rows, up) inside a
 * transaction that is rolled back, so the shared test database keeps its schema.
 */
describe('migration DashboardCounters', () => {
  const database = migrationDatabase();

  const insert = (
    runner: QueryRunner,
    owner: PackOwner,
    answers: Record<string, unknown>,
    selected: Record<string, number> | null,
    source = 'api',
  ) =>
    runner.query(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result,
                                model_id, latency_ms, selected_probabilities)
       VALUES ($1, $2, $3, $4, $5, 'accept', '{}', $6, 'm', 5, $7)`,
      [
        randomUUID(),
        owner.userId,
        owner.packId,
        owner.packVersionId,
        source,
        JSON.stringify({ answers }),
        selected && JSON.stringify(selected),
      ],
    );

  const bins = (runner: QueryRunner, owner: PackOwner) =>
    runner.query(
      `SELECT question_id AS "questionId", bin, count FROM evaluation_probability_bins
        WHERE pack_version_id = $1 ORDER BY question_id, bin`,
      [owner.packVersionId],
    );

  it('backfills the review backlog per user and source, then keeps it as reviews arrive and labels come and go', async () => {
    await database.inRolledBackTransaction(async (runner) => {
      const migration = new DashboardCounters1795751400000();
      await migration.down(runner);
      const owner = newPackOwner();
      await insertPackOwner((sql, params) => runner.query(sql, params), owner);
      const review = (source: string, labeled = false) =>
        runner.query(
          `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result,
                                    model_id, latency_ms, labeled)
           VALUES (gen_random_uuid(), $1, $2, $3, $4, 'review', '{}', '{"answers": {}}', 'm', 5, $5) RETURNING id`,
          [owner.userId, owner.packId, owner.packVersionId, source, labeled],
        ) as Promise<Array<{ id: string }>>;
      const backlog = () =>
        runner.query(
          `SELECT source, unlabeled FROM evaluation_review_backlog WHERE user_id = $1 ORDER BY source`,
          [owner.userId],
        );
      // Before: two unlabeled api reviews, one labeled, one unlabeled from a simulation, and an accept.
      const [[first]] = await Promise.all([
        review('api'),
        review('api'),
        review('api', true),
        review('simulation'),
      ]);
      await insert(runner, owner, {}, null);

      await migration.up(runner);
      expect(await backlog()).toEqual([
        { source: 'api', unlabeled: 2 },
        { source: 'simulation', unlabeled: 1 },
      ]);

      // New reviews count at once; a multi-row insert adds each.
      await review('webhook');
      await runner.query(
        `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id, latency_ms)
         SELECT gen_random_uuid(), $1, $2, $3, 'api', 'review', '{}', '{"answers": {}}', 'm', 5 FROM generate_series(1, 3)`,
        [owner.userId, owner.packId, owner.packVersionId],
      );
      expect(await backlog()).toEqual([
        { source: 'api', unlabeled: 5 },
        { source: 'simulation', unlabeled: 1 },
        { source: 'webhook', unlabeled: 1 },
      ]);
      // A label leaves the backlog, its removal puts it back; updates that change nothing move nothing.
      await runner.query(`UPDATE evaluations SET labeled = true WHERE id = $1`, [first.id]);
      expect((await backlog())[0]).toEqual({ source: 'api', unlabeled: 4 });
      await runner.query(`UPDATE evaluations SET labeled = true WHERE id = $1`, [first.id]);
      await runner.query(`UPDATE evaluations SET audit_selected = false WHERE user_id = $1`, [owner.userId]);
      expect((await backlog())[0]).toEqual({ source: 'api', unlabeled: 4 });
      await runner.query(`UPDATE evaluations SET labeled = false WHERE id = $1`, [first.id]);
      expect((await backlog())[0]).toEqual({ source: 'api', unlabeled: 5 });
      // The backlog equals the count it replaces.
      const [counted] = await runner.query(
        `SELECT count(*)::int AS n FROM evaluations WHERE user_id = $1 AND status = 'review' AND NOT labeled`,
        [owner.userId],
      );
      expect(counted.n).toBe(7);
    });
  });

  it('runs the stats trigger without JIT, which its plans cached from a bulk insert would otherwise pay on every insert', async () => {
    const [fn] = await database.query(
      `SELECT proconfig FROM pg_proc WHERE proname = 'evaluation_daily_stats_add'`,
    );
    expect(fn.proconfig).toEqual(['jit=off']);
  });

  it('backfills the histogram from stored and computed selected probabilities, then the trigger adds to it', async () => {
    await database.inRolledBackTransaction(async (runner) => {
      const migration = new DashboardCounters1795751400000();
      await migration.down(runner);
      const owner = newPackOwner();
      await insertPackOwner((sql, params) => runner.query(sql, params), owner);
      // Stored: 0.29 and 0.8. Before they were stored: max(0.2, 0.8), the chosen option's 0.55, and a
      // score without probabilities (1). A simulation counts too; a failed judgment (no answers) does not.
      await insert(runner, owner, { tone: { type: 'boolean', probability: 0.71 } }, { tone: 0.29 });
      await insert(runner, owner, { tone: { type: 'boolean', probability: 0.8 } }, { tone: 0.8 });
      await insert(runner, owner, { tone: { type: 'boolean', probability: 0.2 } }, null, 'simulation');
      await insert(
        runner,
        owner,
        { dept: { type: 'choice', choice: 'a', probabilities: { a: 0.55 } } },
        null,
      );
      await insert(runner, owner, { dept: { type: 'score', score: 3 } }, null);
      await insert(runner, owner, {}, {});

      await migration.up(runner);
      expect(await bins(runner, owner)).toEqual([
        { questionId: 'dept', bin: 5500, count: 1 },
        { questionId: 'dept', bin: 10000, count: 1 },
        { questionId: 'tone', bin: 2900, count: 1 },
        { questionId: 'tone', bin: 8000, count: 2 },
      ]);

      // From now on the trigger keeps it: a multi-row insert adds each row to its bin.
      await runner.query(
        `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id, latency_ms, selected_probabilities)
         SELECT gen_random_uuid(), $1, $2, $3, 'webhook', 'review', '{}',
                jsonb_build_object('answers', jsonb_build_object('tone', jsonb_build_object('type', 'boolean', 'probability', p))),
                'm', 5, jsonb_build_object('tone', greatest(p, 1 - p))
           FROM unnest(ARRAY[0.8, 0.07, 0.93]::float8[]) AS p`,
        [owner.userId, owner.packId, owner.packVersionId],
      );
      expect(await bins(runner, owner)).toEqual([
        { questionId: 'dept', bin: 5500, count: 1 },
        { questionId: 'dept', bin: 10000, count: 1 },
        { questionId: 'tone', bin: 2900, count: 1 },
        { questionId: 'tone', bin: 8000, count: 3 },
        { questionId: 'tone', bin: 9300, count: 2 },
      ]);
      // The counters the trigger kept before still count every insert.
      const [daily] = await runner.query(
        `SELECT sum(accept + review)::int AS evaluations FROM evaluation_daily_stats WHERE user_id = $1`,
        [owner.userId],
      );
      expect(daily.evaluations).toBe(9);
    });
  });
});
