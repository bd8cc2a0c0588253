import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { planShadowDraw } from '@app/domain';
import { inboundEvaluation, insertPackOwner, newPackOwner } from '../../../../test/support/pack-owner.js';
import { dataSourceOptions } from '../data-source-options.js';
import type { EndpointLookup } from '../cache/endpoint.lookup.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { ShadowRepository, type ActiveShadowRun } from './shadow.repository.js';
import { WebhookRepository } from './webhook.repository.js';

/**
 * The sampler's step on the migrated schema: it draws at rate 1 in evaluation order, at most the
 * room it is given, and its cursor stops where it stopped drawing, so the next step goes on from
 * the first evaluation left undrawn; at the run's cap it draws nothing more and passes the rest.
 */
describe('ShadowRepository.sample and stop', () => {
  let dataSource: DataSource;
  let shadows: ShadowRepository;
  const owner = newPackOwner();
  const evaluationIds: string[] = [];

  beforeAll(async () => {
    dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 2 }),
    ).initialize();
    shadows = new ShadowRepository(dataSource, new PreparedSql(dataSource));
    await dataSource.transaction((tx) => insertPackOwner((sql, params) => tx.query(sql, params), owner));
    // Ten live evaluations, settled (a minute old), a second apart; and a simulation's, never drawn.
    for (let i = 0; i < 11; i++) {
      const id = randomUUID();
      await dataSource.query(
        `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id, latency_ms, created_at)
         VALUES ($1, $2, $3, $4, $5, 'accept', '{}', '{}', 'm', 1, now() - interval '60 seconds' + $6 * interval '1 second')`,
        [id, owner.userId, owner.packId, owner.packVersionId, i === 5 ? 'simulation' : 'api', i],
      );
      if (i !== 5) evaluationIds.push(id);
    }
  });

  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = $1`, [owner.userId]);
    await dataSource.destroy();
  });

  /** One sampling step as the runner takes it, with at most `maxPending` judgments waiting. */
  const step = (run: ActiveShadowRun, maxPending: number) =>
    shadows.sample(run, (state, candidates) => planShadowDraw(run.id, state, candidates, maxPending));

  /**
   * Steps until one draws something, or `withinMs` passes. The cursor also stops before the oldest
   * transaction open on the database, and other test files share it: one of theirs still open can
   * hold the cursor back past a fixed wait, so a test waits for the draw rather than for a time.
   */
  async function firstDraw(run: ActiveShadowRun, withinMs: number): Promise<string[]> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const drawn = await step(run, 100);
      if (drawn.length || Date.now() > deadline) return drawn;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** A run at rate 1 over the pack, with its cursor before the evaluations. */
  async function newRun(maxJudgments: number | null): Promise<ActiveShadowRun> {
    const created = await shadows.create({
      userId: owner.userId,
      packId: owner.packId,
      versionId: owner.packVersionId,
      draftVersionId: owner.packVersionId,
      sampleRate: 1,
      maxJudgments,
    });
    if (!created || created === 'active') throw new Error(`no run: ${created}`);
    await dataSource.query(`UPDATE shadow_runs SET scanned_until = now() - interval '1 hour' WHERE id = $1`, [
      created.id,
    ]);
    return { id: created.id, userId: owner.userId, packId: owner.packId, packDeleted: false, pending: 0 };
  }

  it('keeps at most the waiting judgments it is given and goes on from the first one left undrawn', async () => {
    const run = await newRun(null);
    try {
      // At most 3 waiting: 3 drawn; still 3 waiting, so none more; room for 4 more at 7.
      expect(await step(run, 3)).toEqual(evaluationIds.slice(0, 3));
      expect(await step(run, 3)).toEqual([]);
      expect(await step(run, 7)).toEqual(evaluationIds.slice(3, 7));
      expect(await step(run, 100)).toEqual(evaluationIds.slice(7));
      expect(await step(run, 100)).toEqual([]);
      expect((await shadows.find(owner.userId, run.id))?.sampled).toBe(10);
    } finally {
      await shadows.stop(owner.userId, run.id, 'requested');
    }
  });

  it('stops a run by dropping its waiting judgments, which `sampled` then no longer counts', async () => {
    const run = await newRun(null);
    expect(await step(run, 4)).toHaveLength(4);
    // Another user neither stops the run nor reads its figures.
    const stranger = randomUUID();
    expect(await shadows.stop(stranger, run.id, 'requested')).toBe(false);
    expect((await shadows.report(stranger, run.id)).totals.pending).toBe(0);
    expect((await shadows.report(owner.userId, run.id)).totals.pending).toBe(4);
    expect(await shadows.stop(owner.userId, run.id, 'requested')).toBe(true);
    expect(await shadows.stop(owner.userId, run.id, 'requested')).toBe(false);
    const [row] = await dataSource.query(
      `SELECT status, sampled, (SELECT count(*)::int FROM shadow_judgments WHERE shadow_run_id = $1) AS rows
         FROM shadow_runs WHERE id = $1`,
      [run.id],
    );
    expect(row).toEqual({ status: 'stopped', sampled: 0, rows: 0 });
    expect(await step(run, 100)).toEqual([]);
  });

  it('draws an inbound evaluation whose write waited for a connection past the settling time', async () => {
    // The worker's writes go through a pool of one connection, held (outside any transaction) for
    // longer than the sampler lets rows settle, so the inbound judgment waits for it; meanwhile
    // another live evaluation is written, settles and is drawn, which moves the cursor past the
    // moment the judgment was asked for. Its row is stamped when Postgres inserts it, after the cursor.
    // The connection is let go once that draw is seen, not after a fixed time, so a slow machine
    // cannot release it before the draw (or so late that the pool gives up, at 5 s).
    const narrow = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 1 }),
    ).initialize();
    // Not used by recordJudgment.
    const webhooks = new WebhookRepository(narrow, new PreparedSql(narrow), {} as EndpointLookup);
    const run = await newRun(null);
    const eventId = randomUUID();
    const inbound = randomUUID();
    const meanwhile = randomUUID();
    try {
      expect(await step(run, 100)).toEqual(evaluationIds);
      await dataSource.query(
        `INSERT INTO inbound_events (id, user_id, pack_id, pack_version_id, ticket) VALUES ($1, $2, $3, $4, '{}')`,
        [eventId, owner.userId, owner.packId, owner.packVersionId],
      );
      const holder = narrow.createQueryRunner();
      await holder.connect();
      const recorded = webhooks.recordJudgment(
        inboundEvaluation(owner, { id: inbound }),
        eventId,
        { type: 'evaluation.completed' },
        randomUUID(),
      );
      await dataSource.query(
        `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id, latency_ms)
         VALUES ($1, $2, $3, $4, 'api', 'accept', '{}', '{}', 'm', 1)`,
        [meanwhile, owner.userId, owner.packId, owner.packVersionId],
      );
      // Settled (1 s) while the judgment still waits for its connection.
      const drawn = await firstDraw(run, 3_500);
      await holder.release();
      expect(drawn).toEqual([meanwhile]);
      expect(await recorded).toEqual({ stored: true, deliveryId: null });
      expect(await firstDraw(run, 5_000)).toEqual([inbound]);
    } finally {
      await shadows.stop(owner.userId, run.id, 'requested');
      await narrow.destroy();
      await dataSource.query(`DELETE FROM evaluations WHERE id = ANY($1::uuid[])`, [[inbound, meanwhile]]);
      await dataSource.query(`DELETE FROM inbound_events WHERE id = $1`, [eventId]);
    }
  });

  it('stops drawing at the cap, and passes what comes after', async () => {
    const run = await newRun(4);
    try {
      expect(await step(run, 100)).toEqual(evaluationIds.slice(0, 4));
      const [cursor] = await dataSource.query(
        `SELECT scanned_until_id AS id, sampled FROM shadow_runs WHERE id = $1`,
        [run.id],
      );
      expect(cursor).toEqual({ id: evaluationIds[9], sampled: 4 });
      expect(await step(run, 100)).toEqual([]);
    } finally {
      await shadows.stop(owner.userId, run.id, 'requested');
    }
  });
});
