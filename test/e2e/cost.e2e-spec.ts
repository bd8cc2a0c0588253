import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { startApi, type TestApi } from '../support/api.js';
import { newTenant, type Client } from '../support/client.js';
import { createDataset } from '../support/datasets.js';
import { queryDatabase } from '../support/db.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

/**
 * Cost (issue 24 §3, docs/cost.md): each evaluation's tokens at its model's price in MODEL_PRICES,
 * null (unknown) for a model without one, 0 for local-lexical-1; summed per day and pack in
 * GET /api/stats and per run in GET /api/simulations/{id}.
 */

/** Its own Redis namespace: only this file's worker takes these simulation jobs. */
const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-cost`;

/** The fake gateway answers as `fake-model-2026-01-01` with 321 input and 45 output tokens. */
const PRICES = {
  'fake-model-2026-01-01': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'configured-model': { inputPerMTok: 1, outputPerMTok: 4 },
};
/** 321 × 2.5 / 1e6 + 45 × 10 / 1e6 = 0.0008025 + 0.00045, by hand. */
const PRICED_CALL_USD = 0.0012525;

const MIDNIGHT = `date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

interface Pack {
  id: string;
  liveVersionId: string;
}

async function storedCost(evaluationId: string) {
  const [row] = await queryDatabase<{ costUsd: number | null; inputTokens: number; outputTokens: number }>(
    `SELECT cost_usd AS "costUsd", input_tokens AS "inputTokens", output_tokens AS "outputTokens"
       FROM evaluations WHERE id = $1`,
    [evaluationId],
  );
  return row;
}

/** An evaluation stored at a given time with a given cost, as the judge route would have stored it then. */
async function insertAt(
  userId: string,
  pack: Pack,
  costUsd: number | null,
  createdAtSql: string,
  source = 'api',
): Promise<void> {
  await queryDatabase(
    `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id,
                              latency_ms, input_tokens, output_tokens, cost_usd, created_at)
     VALUES ($1, $2, $3, $4, $5, 'accept', '{"subject":"s","customerMessage":"m"}',
             jsonb_build_object('status', 'accept', 'answers', '{}'::jsonb, 'reviewReasons', '[]'::jsonb, 'modelId', 'm', 'latencyMs', 10),
             'm', 10, 100, 10, $6, ${createdAtSql})`,
    [randomUUID(), userId, pack.id, pack.liveVersionId, source, costUsd],
  );
}

function utcDate(daysAgo: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - daysAgo * 86_400_000)
    .toISOString()
    .slice(0, 10);
}

function byPackId<T extends { packId: string }>(items: T[]): T[] {
  return [...items].sort((a, b) => (a.packId < b.packId ? -1 : a.packId > b.packId ? 1 : 0));
}

describe('cost', () => {
  let api: TestApi;
  let lexical: TestApi;
  let gateway: FakeGateway;
  let worker: RunningProcess;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    const env = {
      MODEL_GATEWAY_URL: gateway.url,
      MODEL_NAME: 'configured-model',
      MODEL_PRICES: JSON.stringify(PRICES),
      REDIS_PREFIX: PREFIX,
    };
    api = await startApi(env);
    // No gateway and no prices: the built-in local-lexical-1 judges, and costs 0.
    lexical = await startApi({ MODEL_GATEWAY_URL: '', MODEL_PRICES: '', REDIS_PREFIX: PREFIX });
    worker = await startWorker(env);
  });
  afterEach(() => gateway.reset());
  afterAll(async () => {
    await stopWorker(worker);
    await lexical.close();
    await api.close();
    await gateway.close();
  });

  const judge = async (client: Client, packId: string, ticket: object = TICKET) => {
    const res = await client.post('/api/judge', { packId, ticket });
    expect(res.status).toBe(200);
    return res.body as { evaluationId: string; result: { modelId: string; reviewReasons: string[] } };
  };

  it("records each evaluation's cost from its model's price and the gateway's usage; an unpriced model's is unknown", async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);

    const priced = await judge(keyed, pack.id);
    expect(priced.result.modelId).toBe('fake-model-2026-01-01');
    const pricedRow = await storedCost(priced.evaluationId);
    expect(pricedRow).toMatchObject({ inputTokens: 321, outputTokens: 45 });
    expect(pricedRow.costUsd).toBeCloseTo(PRICED_CALL_USD, 12);

    // A model the configuration has no price for: its tokens are counted, its cost is null, not 0.
    gateway.next({ kind: 'answer', model: 'unpriced-model-2026' });
    const unpriced = await judge(keyed, pack.id);
    expect(unpriced.result.modelId).toBe('unpriced-model-2026');
    expect(await storedCost(unpriced.evaluationId)).toEqual({
      costUsd: null,
      inputTokens: 321,
      outputTokens: 45,
    });

    // Stopped before the model (no usage), under the priced configured model: 0 tokens, 0 USD.
    const blank = await judge(keyed, pack.id, { subject: '   ', customerMessage: '\n' });
    expect(blank.result).toMatchObject({ modelId: 'configured-model', reviewReasons: ['invalid_ticket'] });
    expect(await storedCost(blank.evaluationId)).toEqual({ costUsd: 0, inputTokens: 0, outputTokens: 0 });

    const stats = (await keyed.get('/api/stats')).body;
    expect(stats.tokens).toEqual({ input: 642, output: 90 });
    expect(stats.cost.today.unknownCostEvaluations).toBe(1);
    expect(stats.cost.today.costUsd).toBeCloseTo(PRICED_CALL_USD, 12);
    expect(stats.cost.days).toHaveLength(30);
    const today = stats.cost.days[29];
    expect(today).toEqual({
      date: utcDate(0),
      costUsd: expect.any(Number),
      unknownCostEvaluations: 1,
      packs: [
        {
          packId: pack.id,
          packName: 'Triage',
          packDeleted: false,
          evaluations: 3,
          costUsd: expect.any(Number),
          unknownCostEvaluations: 1,
        },
      ],
    });
    expect(today.costUsd).toBeCloseTo(PRICED_CALL_USD, 12);
    expect(today.packs[0].costUsd).toBeCloseTo(PRICED_CALL_USD, 12);
  });

  it('costs local-lexical-1 nothing, without any price configured', async () => {
    const { keyed } = await newTenant(lexical.url);
    const pack = await createPublishedPack(keyed);
    const judged = await judge(keyed, pack.id);
    expect(judged.result.modelId).toBe('local-lexical-1');
    expect((await storedCost(judged.evaluationId)).costUsd).toBe(0);
    const stats = (await keyed.get('/api/stats')).body;
    expect(stats.cost.today).toEqual({ costUsd: 0, unknownCostEvaluations: 0 });
    expect(stats.cost.days[29].packs).toEqual([
      {
        packId: pack.id,
        packName: 'Triage',
        packDeleted: false,
        evaluations: 1,
        costUsd: 0,
        unknownCostEvaluations: 0,
      },
    ]);
  });

  it('sums cost per UTC day and pack over 30 days, by source, for the caller only, deleted packs included', async () => {
    const { keyed, user } = await newTenant(api.url);
    const other = await newTenant(api.url);
    const first: Pack = await createPublishedPack(keyed, undefined, 'First');
    const second: Pack = await createPublishedPack(keyed, undefined, 'Second');
    const foreign: Pack = await createPublishedPack(other.keyed);

    await insertAt(user.id, first, 0.5, `${MIDNIGHT} - interval '3 days'`);
    await insertAt(user.id, first, 0.25, `${MIDNIGHT} - interval '3 days' + interval '1 hour'`);
    await insertAt(user.id, second, null, `${MIDNIGHT} - interval '3 days'`);
    // Just before midnight counts for yesterday, just after for today.
    await insertAt(user.id, second, 1, `${MIDNIGHT} - interval '1 millisecond'`);
    await insertAt(user.id, second, 2, `${MIDNIGHT} + interval '1 millisecond'`);
    await insertAt(user.id, second, 4, `${MIDNIGHT} + interval '2 milliseconds'`, 'simulation');
    // Outside the 30 days, and another user's: never counted.
    await insertAt(user.id, first, 100, `${MIDNIGHT} - interval '40 days'`);
    await insertAt(other.user.id, foreign, 1000, MIDNIGHT);

    const stats = (await keyed.get('/api/stats')).body;
    expect(stats.cost.today).toEqual({ costUsd: 6, unknownCostEvaluations: 0 });
    const days = new Map(stats.cost.days.map((day: { date: string }) => [day.date, day]));
    expect(stats.cost.days.map((day: { date: string }) => day.date)).toEqual(
      stats.daily.map((day: { date: string }) => day.date),
    );
    expect(days.get(utcDate(3))).toEqual({
      date: utcDate(3),
      costUsd: 0.75,
      // Part of that day's cost is unknown: 0.75 is a lower bound, and says so.
      unknownCostEvaluations: 1,
      packs: byPackId([
        {
          packId: first.id,
          packName: 'First',
          packDeleted: false,
          evaluations: 2,
          costUsd: 0.75,
          unknownCostEvaluations: 0,
        },
        {
          packId: second.id,
          packName: 'Second',
          packDeleted: false,
          evaluations: 1,
          costUsd: 0,
          unknownCostEvaluations: 1,
        },
      ]),
    });
    expect(days.get(utcDate(1))).toEqual({
      date: utcDate(1),
      costUsd: 1,
      unknownCostEvaluations: 0,
      packs: [
        {
          packId: second.id,
          packName: 'Second',
          packDeleted: false,
          evaluations: 1,
          costUsd: 1,
          unknownCostEvaluations: 0,
        },
      ],
    });
    expect(days.get(utcDate(2))).toEqual({
      date: utcDate(2),
      costUsd: 0,
      unknownCostEvaluations: 0,
      packs: [],
    });
    expect(stats.cost.days.reduce((sum: number, day: { costUsd: number }) => sum + day.costUsd, 0)).toBe(
      7.75,
    );

    // `source` narrows cost as it narrows the other evaluation figures.
    const live = (await keyed.get('/api/stats?source=api')).body;
    expect(live.cost.today).toEqual({ costUsd: 2, unknownCostEvaluations: 0 });
    const simulated = (await keyed.get('/api/stats?source=simulation')).body;
    expect(simulated.cost.today).toEqual({ costUsd: 4, unknownCostEvaluations: 0 });
    expect(simulated.cost.days[26]).toEqual({
      date: utcDate(3),
      costUsd: 0,
      unknownCostEvaluations: 0,
      packs: [],
    });

    // What a deleted pack spent stays counted, marked as deleted.
    expect((await keyed.delete(`/api/packs/${first.id}`)).status).toBe(204);
    const after = (await keyed.get('/api/stats')).body;
    expect(after.cost.days[26].costUsd).toBe(0.75);
    expect(after.cost.days[26].packs).toContainEqual({
      packId: first.id,
      packName: 'First',
      packDeleted: true,
      evaluations: 2,
      costUsd: 0.75,
      unknownCostEvaluations: 0,
    });
  });

  it('costs inbound events the same way, judged on the worker', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const accepted = await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET });
    expect(accepted.status).toBe(202);
    const row = await eventually(async () => {
      const [stored] = await queryDatabase<{ costUsd: number | null; modelId: string }>(
        `SELECT cost_usd AS "costUsd", model_id AS "modelId" FROM evaluations WHERE inbound_event_id = $1`,
        [accepted.body.eventId],
      );
      return stored;
    });
    expect(row.modelId).toBe('fake-model-2026-01-01');
    expect(row.costUsd).toBeCloseTo(PRICED_CALL_USD, 12);
    const stats = (await keyed.get('/api/stats?source=webhook')).body;
    expect(stats.cost.today.unknownCostEvaluations).toBe(0);
    expect(stats.cost.today.costUsd).toBeCloseTo(PRICED_CALL_USD, 12);
  });

  it("gives a simulation its evaluations' cost, and counts the unknown ones", async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 3, 'three');
    const run = async () => {
      const started = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id });
      expect(started.status).toBe(202);
      return eventually(async () => {
        const res = await keyed.get(`/api/simulations/${started.body.id}`);
        return res.body.status === 'completed' ? res.body : undefined;
      }, 60_000);
    };

    const priced = await run();
    expect(priced.cost.unknownCostEvaluations).toBe(0);
    expect(priced.cost.costUsd).toBeCloseTo(3 * PRICED_CALL_USD, 12);

    gateway.set({ kind: 'answer', model: 'unpriced-model-2026' });
    const unpriced = await run();
    expect(unpriced.cost).toEqual({ costUsd: 0, unknownCostEvaluations: 3 });

    // The runs' evaluations are in the stats too, under the simulation source.
    const stats = (await keyed.get('/api/stats?source=simulation')).body;
    expect(stats.cost.today.unknownCostEvaluations).toBe(3);
    expect(stats.cost.today.costUsd).toBeCloseTo(3 * PRICED_CALL_USD, 12);
    expect(stats.cost.days[29].packs).toEqual([
      {
        packId: pack.id,
        packName: 'Triage',
        packDeleted: false,
        evaluations: 6,
        costUsd: expect.any(Number),
        unknownCostEvaluations: 3,
      },
    ]);
  });
});
