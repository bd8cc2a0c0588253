import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { startApi, type TestApi } from '../support/api.js';
import { newTenant } from '../support/client.js';
import { createIsolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js';
import { createPublishedPack } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { Receiver, verifies } from '../support/receiver.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

/**
 * Quality alerts (issue 24, section 2; docs/alerts.md): each rule fires on planted, backdated live
 * evaluations and stays quiet on a control pack, closes when its condition clears, is sent once as
 * a signed `quality.alert` delivery (retried like a completion), and is acknowledged; the rule
 * settings routes validate their body; another user's pack or alert is not found.
 */
const PREFIX = `${process.env.REDIS_PREFIX}-alerts`;
const CHECK_MS = 400;
const DAY = 24 * 60;

const BILLING = { department: { type: 'choice', choice: 'billing' } };
const LEGAL = { department: { type: 'choice', choice: 'legal' } };

interface Planted {
  count: number;
  /** Spread evenly from `from` to `to` minutes ago. */
  minutesAgo: [from: number, to: number];
  status?: 'accept' | 'review' | 'reject';
  answers?: object;
  reasons?: string[];
  source?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('quality alerts', () => {
  let api: TestApi;
  let worker: RunningProcess;
  let receiver: Receiver;
  let db: pg.Client;

  let database: IsolatedDatabase;

  beforeAll(async () => {
    // The check reads every pack of its database: a database of its own keeps it from raising
    // alerts (and sending deliveries) about the specs that run beside this one.
    database = await createIsolatedDatabase('alerts');
    receiver = await new Receiver().start();
    api = await startApi({ REDIS_PREFIX: PREFIX, DATABASE_URL: database.url });
    worker = await startWorker({
      DATABASE_URL: database.url,
      REDIS_PREFIX: PREFIX,
      ALERT_CHECK_MS: String(CHECK_MS),
      WEBHOOK_MAX_ATTEMPTS: '3',
      WEBHOOK_BACKOFF_MS: '200',
    });
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    if (worker) await stopWorker(worker);
    await api?.close();
    await receiver?.close();
    await database?.drop();
  });

  /** Live evaluations of the pack's live version, inserted directly with their age. */
  async function plant(packId: string, planted: Planted): Promise<string[]> {
    const { count, minutesAgo, status = 'accept', answers = BILLING, reasons = [], source = 'api' } = planted;
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result,
                                model_id, latency_ms, created_at)
       SELECT gen_random_uuid(), p.user_id, p.id, p.live_version_id, $2, $3,
              '{"subject":"Planted","customerMessage":"Planted"}'::jsonb,
              jsonb_build_object('status', $3::text, 'answers', $4::jsonb, 'reviewReasons', $5::jsonb,
                                 'modelId', 'planted', 'latencyMs', 10),
              'planted', 10, now() - ($6::float8 + ($7::float8 - $6::float8) * n / $8::int) * interval '1 minute'
         FROM packs p, generate_series(0, $8::int - 1) AS n
        WHERE p.id = $1
       RETURNING id`,
      [packId, source, status, JSON.stringify(answers), JSON.stringify(reasons), ...minutesAgo, count],
    );
    return rows.map((row) => row.id);
  }

  /** A label on the department question of each evaluation: the first `agreeing` agree. */
  async function label(ids: string[], agreeing: number): Promise<void> {
    await db.query(
      `INSERT INTO labels (id, user_id, evaluation_id, question_id, answer, agreement)
       SELECT gen_random_uuid(), e.user_id, e.id, 'department', '{"type":"choice","choice":"billing"}'::jsonb,
              u.n <= $2
         FROM unnest($1::uuid[]) WITH ORDINALITY AS u (id, n) JOIN evaluations e ON e.id = u.id`,
      [ids, agreeing],
    );
  }

  async function tenantWithPack(endpoint = false) {
    const tenant = await newTenant(api.url);
    const pack = await createPublishedPack(tenant.keyed);
    const saved = endpoint
      ? (await tenant.keyed.post('/api/webhook-endpoints', { url: receiver.url })).body
      : undefined;
    return { ...tenant, pack, endpoint: saved as { secret: string } | undefined };
  }

  type Tenant = Awaited<ReturnType<typeof tenantWithPack>>;

  async function alertsOf(tenant: Tenant, query = ''): Promise<any[]> {
    const res = await tenant.keyed.get(`/api/alerts?packId=${tenant.pack.id}${query}`);
    expect(res.status).toBe(200);
    return res.body;
  }

  /** Waits for an alert of the pack in `status`, of `rule`. */
  function alertIn(tenant: Tenant, rule: string, status: string): Promise<any> {
    return eventually(async () =>
      (await alertsOf(tenant)).find((alert) => alert.rule === rule && alert.status === status),
    );
  }

  /** Long enough for several checks of every pack to have run. */
  const checksPass = () => sleep(CHECK_MS * 5);

  it('agreement drift: fires on recent disagreement, is sent once, signed and retried, and closes when agreement recovers', async () => {
    const drifting = await tenantWithPack(true);
    const control = await tenantWithPack(true);
    for (const tenant of [drifting, control])
      await label(await plant(tenant.pack.id, { count: 40, minutesAgo: [30 * DAY, 10 * DAY] }), 36);
    const recent = await plant(drifting.pack.id, { count: 40, minutesAgo: [6 * DAY, 1 * DAY] });
    await label(recent, 12);
    await label(await plant(control.pack.id, { count: 40, minutesAgo: [6 * DAY, 1 * DAY] }), 36);
    receiver.next(500);

    const alert = await alertIn(drifting, 'agreement_drift', 'open');
    expect(alert).toMatchObject({ packId: drifting.pack.id, questionId: 'department', closedAt: null });
    // 12 of 40 against 36 of 40: the upper bound is far below 0.9 − 0.1.
    expect(alert.figures).toMatchObject({
      recentAgreed: 12,
      recentLabels: 40,
      baselineAgreed: 36,
      baselineLabels: 40,
      margin: 0.1,
    });
    expect(alert.figures.recentAgreement).toBeCloseTo(0.3, 12);
    expect(alert.figures.baselineAgreement).toBeCloseTo(0.9, 12);
    expect(alert.figures.upperBound).toBeLessThan(0.8);
    expect(alert.summary).toContain('department');
    expect(alert.exampleEvaluationIds).toHaveLength(5);
    // The examples are recent evaluations whose label disagrees (the labels after the first 12).
    for (const id of alert.exampleEvaluationIds) expect(recent.slice(12)).toContain(id);
    expect(Date.parse(alert.since)).toBeCloseTo(Date.now() - 7 * DAY * 60_000, -6);

    // The receiver refused the first attempt; the second, after the backoff, succeeds.
    const calls = await eventually(async () => {
      const mine = receiver.calls.filter((call) => call.body.alert?.packId === drifting.pack.id);
      return mine.length >= 2 ? mine : undefined;
    });
    for (const call of calls) {
      expect(verifies(drifting.endpoint!.secret, call.raw, call.headers['x-service-signature'])).toBe(true);
      expect(call.headers['x-service-alert-id']).toBe(alert.id);
      expect(call.body).toEqual({
        type: 'quality.alert',
        alert: expect.objectContaining({ id: alert.id, rule: 'agreement_drift', status: 'open' }),
      });
    }
    expect(verifies('whsec_wrong', calls[0].raw, calls[0].headers['x-service-signature'])).toBe(false);
    expect(calls[1].raw).toBe(calls[0].raw);
    const delivery = await eventually(async () => {
      const items = (await drifting.keyed.get('/api/webhook-deliveries')).body.items;
      return items.find((item: any) => item.alertId === alert.id && item.status === 'succeeded');
    });
    expect(delivery).toMatchObject({
      type: 'quality.alert',
      eventId: null,
      evaluationId: null,
      simulationId: null,
      attempts: 2,
      lastStatusCode: 200,
    });
    expect(calls[0].headers['x-service-delivery-id']).toBe(delivery.id);

    // While the condition holds, checks go on without raising or sending it again.
    await checksPass();
    expect(receiver.calls.filter((call) => call.body.alert?.packId === drifting.pack.id)).toHaveLength(2);
    expect(await alertsOf(drifting)).toHaveLength(1);
    // The control pack, with the same baseline and 36 of 40 recent agreements, has none.
    expect(await alertsOf(control)).toEqual([]);
    expect(receiver.calls.filter((call) => call.body.alert?.packId === control.pack.id)).toEqual([]);

    // Reviewers agree again: the condition clears and the alert closes itself.
    await db.query(`UPDATE labels SET agreement = true WHERE evaluation_id = ANY($1::uuid[])`, [recent]);
    const closed = await alertIn(drifting, 'agreement_drift', 'closed');
    expect(closed.id).toBe(alert.id);
    expect(Date.parse(closed.closedAt)).toBeGreaterThan(Date.parse(closed.createdAt));

    // It turns bad again: a new alert opens, is listed first (open first, then newest) and is sent.
    await db.query(`UPDATE labels SET agreement = false WHERE evaluation_id = ANY($1::uuid[])`, [recent]);
    const again = await alertIn(drifting, 'agreement_drift', 'open');
    expect(again.id).not.toBe(alert.id);
    expect((await alertsOf(drifting)).map((item) => item.id)).toEqual([again.id, alert.id]);
    expect((await alertsOf(drifting, '&status=closed')).map((item) => item.id)).toEqual([alert.id]);
    await eventually(async () =>
      receiver.calls.some((call) => call.body.alert?.id === again.id) ? true : undefined,
    );
  });

  it('answer shift: fires when the last 7 days answer differently from the 28 before, and closes when they no longer do', async () => {
    const shifting = await tenantWithPack();
    const control = await tenantWithPack();
    await plant(shifting.pack.id, { count: 60, minutesAgo: [30 * DAY, 10 * DAY], answers: BILLING });
    const recent = await plant(shifting.pack.id, {
      count: 60,
      minutesAgo: [6 * DAY, 1 * DAY],
      answers: LEGAL,
    });
    await plant(control.pack.id, { count: 60, minutesAgo: [30 * DAY, 10 * DAY], answers: BILLING });
    await plant(control.pack.id, { count: 60, minutesAgo: [6 * DAY, 1 * DAY], answers: BILLING });
    // Simulations and the playground do not count: a shift among them raises nothing.
    for (const source of ['simulation', 'playground'])
      await plant(control.pack.id, { count: 60, minutesAgo: [6 * DAY, 1 * DAY], answers: LEGAL, source });

    const alert = await alertIn(shifting, 'answer_shift', 'open');
    expect(alert.questionId).toBe('department');
    expect(alert.figures).toMatchObject({
      recentCount: 60,
      baselineCount: 60,
      threshold: 0.25,
      smoothing: 0.5,
    });
    // Shares (count + 0.5) / 61: legal 60.5/61 against 0.5/61, billing the other way round:
    // PSI = 2 · (60/61) · ln(121) = 9.435
    expect(alert.figures.psi).toBeCloseTo(2 * (60 / 61) * Math.log(121), 6);
    expect(alert.figures.categories[0]).toMatchObject({
      category: 'legal',
      recentCount: 60,
      baselineCount: 0,
    });
    for (const id of alert.exampleEvaluationIds) expect(recent).toContain(id);
    await checksPass();
    expect(await alertsOf(control)).toEqual([]);

    await db.query(
      `UPDATE evaluations SET result = jsonb_set(result, '{answers}', $2::jsonb) WHERE id = ANY($1::uuid[])`,
      [recent, JSON.stringify(BILLING)],
    );
    expect((await alertIn(shifting, 'answer_shift', 'closed')).id).toBe(alert.id);
  });

  it('review share jump: fires on a significant rise of the share in review, and closes when it falls back', async () => {
    const jumping = await tenantWithPack();
    const control = await tenantWithPack();
    for (const tenant of [jumping, control]) {
      await plant(tenant.pack.id, { count: 90, minutesAgo: [30 * DAY, 10 * DAY] });
      await plant(tenant.pack.id, { count: 10, minutesAgo: [30 * DAY, 10 * DAY], status: 'review' });
      await plant(tenant.pack.id, { count: 30, minutesAgo: [6 * DAY, 1 * DAY] });
    }
    const reviewed = await plant(jumping.pack.id, {
      count: 30,
      minutesAgo: [6 * DAY, 1 * DAY],
      status: 'review',
    });
    await plant(control.pack.id, { count: 4, minutesAgo: [6 * DAY, 1 * DAY], status: 'review' });

    const alert = await alertIn(jumping, 'review_share_jump', 'open');
    expect(alert.questionId).toBeNull();
    // 30 of 60 against 10 of 100: jump 0.4; p̄ = 40/160 = 0.25, se = √(0.25·0.75·(1/60 + 1/100)) = 0.0707107, z = 5.657.
    expect(alert.figures).toMatchObject({
      recentReview: 30,
      recentCount: 60,
      baselineReview: 10,
      baselineCount: 100,
    });
    expect(alert.figures.jump).toBeCloseTo(0.4, 12);
    expect(alert.figures.z).toBeCloseTo(0.4 / Math.sqrt(0.25 * 0.75 * (1 / 60 + 1 / 100)), 6);
    for (const id of alert.exampleEvaluationIds) expect(reviewed).toContain(id);
    await checksPass();
    // 4 of 34 (11.8%) against 10%: no alert.
    expect(await alertsOf(control)).toEqual([]);

    await db.query(`UPDATE evaluations SET status = 'accept' WHERE id = ANY($1::uuid[])`, [reviewed]);
    expect((await alertIn(jumping, 'review_share_jump', 'closed')).id).toBe(alert.id);
  });

  it('gateway failure rate: fires above 20% of the last 15 minutes, and closes when the failures age out', async () => {
    const failing = await tenantWithPack();
    const control = await tenantWithPack();
    for (const tenant of [failing, control]) await plant(tenant.pack.id, { count: 10, minutesAgo: [10, 1] });
    const reasons = ['gateway_unavailable'];
    const failed = [
      ...(await plant(failing.pack.id, { count: 4, minutesAgo: [10, 1], status: 'review', reasons })),
      ...(await plant(failing.pack.id, {
        count: 2,
        minutesAgo: [10, 1],
        status: 'review',
        reasons: ['gateway_auth'],
      })),
    ];
    // The control's failures are a simulation's and the playground's, or older than 15 minutes.
    await plant(control.pack.id, {
      count: 10,
      minutesAgo: [10, 1],
      status: 'review',
      reasons,
      source: 'simulation',
    });
    await plant(control.pack.id, {
      count: 10,
      minutesAgo: [10, 1],
      status: 'review',
      reasons,
      source: 'playground',
    });
    await plant(control.pack.id, { count: 10, minutesAgo: [60, 20], status: 'review', reasons });

    const alert = await alertIn(failing, 'gateway_failure_rate', 'open');
    expect(alert.figures).toMatchObject({ failures: 6, count: 16, threshold: 0.2, windowMinutes: 15 });
    expect(alert.figures.rate).toBeCloseTo(6 / 16, 12);
    expect(alert.exampleEvaluationIds).toHaveLength(5);
    for (const id of alert.exampleEvaluationIds) expect(failed).toContain(id);
    await checksPass();
    expect(await alertsOf(control)).toEqual([]);

    await db.query(
      `UPDATE evaluations SET created_at = now() - interval '20 minutes' WHERE id = ANY($1::uuid[])`,
      [failed],
    );
    expect((await alertIn(failing, 'gateway_failure_rate', 'closed')).id).toBe(alert.id);
  });

  it('acknowledges an alert, which is not raised again while its condition holds; another user’s alert is not found', async () => {
    const tenant = await tenantWithPack();
    await plant(tenant.pack.id, {
      count: 12,
      minutesAgo: [10, 1],
      status: 'review',
      reasons: ['gateway_unavailable'],
    });
    const alert = await alertIn(tenant, 'gateway_failure_rate', 'open');

    const other = await tenantWithPack();
    for (const client of [other.keyed, other.session]) {
      const res = await client.post(`/api/alerts/${alert.id}/ack`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'alert not found' });
    }
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await tenant.keyed.post(`/api/alerts/${id}/ack`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'alert not found' });
    }
    expect((await other.keyed.get(`/api/alerts?packId=${tenant.pack.id}`)).status).toBe(404);
    expect((await other.keyed.get('/api/alerts')).body).toEqual([]);

    const acked = await tenant.keyed.post(`/api/alerts/${alert.id}/ack`);
    expect(acked.status).toBe(200);
    expect(acked.body).toMatchObject({ id: alert.id, status: 'acknowledged', closedAt: null });
    expect(Date.parse(acked.body.acknowledgedAt)).toBeGreaterThan(0);
    // Again: answered as it is.
    expect((await tenant.keyed.post(`/api/alerts/${alert.id}/ack`)).body.acknowledgedAt).toBe(
      acked.body.acknowledgedAt,
    );
    await checksPass();
    expect(await alertsOf(tenant)).toEqual([
      expect.objectContaining({ id: alert.id, status: 'acknowledged' }),
    ]);
    expect(await alertsOf(tenant, '&status=open')).toEqual([]);
    expect((await tenant.keyed.get('/api/alerts?status=unknown')).status).toBe(400);

    // Turning the rule off clears its condition: the acknowledged alert closes.
    const rules = (await tenant.keyed.get(`/api/packs/${tenant.pack.id}/alert-rules`)).body;
    rules.gatewayFailureRate.enabled = false;
    expect((await tenant.keyed.put(`/api/packs/${tenant.pack.id}/alert-rules`, rules)).status).toBe(200);
    expect((await alertIn(tenant, 'gateway_failure_rate', 'closed')).id).toBe(alert.id);
  });

  it('reads and sets a pack’s rules, with defaults, validation and 404 for another user’s pack', async () => {
    const tenant = await tenantWithPack();
    const path = `/api/packs/${tenant.pack.id}/alert-rules`;
    const defaults = {
      agreementDrift: { enabled: true, margin: 0.1, minLabels: 30, confidence: 0.95 },
      answerShift: { enabled: true, psiThreshold: 0.25, minCount: 50 },
      reviewShareJump: { enabled: true, minJump: 0.1, minCount: 50, confidence: 0.95 },
      gatewayFailureRate: { enabled: true, threshold: 0.2, minCount: 10 },
    };
    expect((await tenant.keyed.get(path)).body).toEqual(defaults);

    const changed = { ...defaults, answerShift: { enabled: false, psiThreshold: 0.5, minCount: 100 } };
    const put = await tenant.keyed.put(path, changed);
    expect(put.status).toBe(200);
    expect(put.body).toEqual(changed);
    expect((await tenant.session.get(path)).body).toEqual(changed);

    const invalid: Array<[unknown, string]> = [
      [{ ...defaults, agreementDrift: [defaults.agreementDrift] }, 'agreementDrift'],
      [[defaults], 'body'],
      [
        { ...defaults, gatewayFailureRate: { ...defaults.gatewayFailureRate, threshold: 1.5 } },
        'gatewayFailureRate.threshold',
      ],
      [
        { ...defaults, agreementDrift: { ...defaults.agreementDrift, margin: -0.1 } },
        'agreementDrift.margin',
      ],
      [
        { ...defaults, reviewShareJump: { ...defaults.reviewShareJump, minCount: 2.5 } },
        'reviewShareJump.minCount',
      ],
      [
        { ...defaults, answerShift: { ...defaults.answerShift, psiThreshold: '0.3' } },
        'answerShift.psiThreshold',
      ],
      [
        { ...defaults, agreementDrift: { ...defaults.agreementDrift, confidence: 1 } },
        'agreementDrift.confidence',
      ],
      [{ ...defaults, answerShift: { ...defaults.answerShift, enabled: 'yes' } }, 'answerShift.enabled'],
      [{ ...defaults, answerShift: { enabled: true, psiThreshold: 0.3 } }, 'answerShift.minCount'],
      [{ ...defaults, answerShift: { ...defaults.answerShift, extra: 1 } }, 'answerShift.extra'],
      [{ ...defaults, gatewayFailureRate: null }, 'gatewayFailureRate'],
      [{ agreementDrift: defaults.agreementDrift }, 'answerShift'],
      [{ ...defaults, other: {} }, 'other'],
    ];
    for (const [body, issuePath] of invalid) {
      const res = await tenant.keyed.put(path, body);
      expect({ body, status: res.status, error: res.body.error }).toEqual({
        body,
        status: 400,
        error: 'invalid request',
      });
      expect(res.body.issues.map((issue: { path: string }) => issue.path)).toContain(issuePath);
    }
    expect((await tenant.keyed.get(path)).body).toEqual(changed);

    const other = await tenantWithPack();
    for (const res of [await other.keyed.get(path), await other.keyed.put(path, defaults)]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'pack not found' });
    }
    expect((await tenant.keyed.get(path)).body).toEqual(changed);
  });
});
