import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { insertPackOwner, newPackOwner, type PackOwner } from '../../../../test/support/pack-owner.js';
import { EvaluationCost1795751100000 } from './1795751100000-evaluation-cost.js';
import { migrationDatabase } from '../../../../test/support/migration-database.js';

/**
 * The migration on evaluations stored before it (all of unknown cost), then the trigger it installs:
 * it is run again (down, rows, up) inside a transaction that is rolled back, so the shared test
 * database keeps its schema (DDL is transactional in Postgres).
 */
describe('migration EvaluationCost', () => {
  const database = migrationDatabase();

  const insert = (runner: QueryRunner, owner: PackOwner, source: string, day: string, cost?: number | null) =>
    runner.query(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result,
                                model_id, latency_ms, input_tokens, output_tokens${cost === undefined ? '' : ', cost_usd'}, created_at)
       VALUES ($1, $2, $3, $4, $5, 'accept', '{}', '{"answers": {}}', 'm', 5, 10, 2${cost === undefined ? '' : ', $7'},
               $6::date + interval '12 hours')`,
      [
        randomUUID(),
        owner.userId,
        owner.packId,
        owner.packVersionId,
        source,
        day,
        ...(cost === undefined ? [] : [cost]),
      ],
    );

  const packStats = (runner: QueryRunner, owner: PackOwner) =>
    runner.query(
      `SELECT day::text AS day, source, evaluations, cost_usd AS "costUsd", unknown_cost AS "unknownCost"
         FROM evaluation_daily_pack_stats WHERE user_id = $1 AND pack_id = $2 ORDER BY day, source`,
      [owner.userId, owner.packId],
    );

  it('backfills the per-pack counters with earlier evaluations as unknown, then the trigger adds costs', async () => {
    await database.inRolledBackTransaction(async (runner) => {
      const migration = new EvaluationCost1795751100000();
      await migration.down(runner);
      const owner = newPackOwner();
      await insertPackOwner((sql, params) => runner.query(sql, params), owner);
      await insert(runner, owner, 'api', '2026-11-20');
      await insert(runner, owner, 'api', '2026-11-20');
      await insert(runner, owner, 'simulation', '2026-11-21');

      await migration.up(runner);
      expect(await packStats(runner, owner)).toEqual([
        { day: '2026-11-20', source: 'api', evaluations: 2, costUsd: 0, unknownCost: 2 },
        { day: '2026-11-21', source: 'simulation', evaluations: 1, costUsd: 0, unknownCost: 1 },
      ]);

      // From now on the trigger keeps them: known costs summed, unknown ones counted.
      await insert(runner, owner, 'api', '2026-11-20', 0.25);
      await insert(runner, owner, 'api', '2026-11-21', 0.5);
      await insert(runner, owner, 'api', '2026-11-21', null);
      expect(await packStats(runner, owner)).toEqual([
        { day: '2026-11-20', source: 'api', evaluations: 3, costUsd: 0.25, unknownCost: 2 },
        { day: '2026-11-21', source: 'api', evaluations: 2, costUsd: 0.5, unknownCost: 1 },
        { day: '2026-11-21', source: 'simulation', evaluations: 1, costUsd: 0, unknownCost: 1 },
      ]);
      // The counters the trigger kept before still count every insert.
      const [daily] = await runner.query(
        `SELECT sum(accept)::int AS accept FROM evaluation_daily_stats WHERE user_id = $1`,
        [owner.userId],
      );
      expect(daily.accept).toBe(6);

      // Down restores the trigger without the table, and inserts still count.
      await migration.down(runner);
      await insert(runner, owner, 'api', '2026-11-22');
      const [after] = await runner.query(
        `SELECT sum(accept)::int AS accept FROM evaluation_daily_stats WHERE user_id = $1`,
        [owner.userId],
      );
      expect(after.accept).toBe(7);
    });
  });
});
