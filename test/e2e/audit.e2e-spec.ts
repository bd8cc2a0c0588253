import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { startApi, type TestApi } from '../support/api.js';
import { startApiProcess } from '../support/api-process.js';
import { Client, createKey, newTenant, PASSWORD, signUp } from '../support/client.js';
import { createDataset } from '../support/datasets.js';
import { startFakeGateway, type Behaviour, type FakeGateway } from '../support/fake-gateway.js';
import { authorizeAndExchange, callTool, mcpCall, registerClient } from '../support/oauth-flow.js';
import { createPack, createPublishedPack, TICKET, triageDocument } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { seededRandom } from '../support/random.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

/**
 * Audit sampling (issue 23, section 1; docs/reviews.md, "Audit sampling"): the settings routes,
 * the draw stored with each live evaluation, the audit queue and the value order of the queues.
 */
const PREFIX = `${process.env.REDIS_PREFIX}-audit`;

/** Every question at 0.95: accepted. */
const ACCEPT: Behaviour = {
  kind: 'answer',
  confidence: 0.95,
  choose: { department: 'technical', abusive: false },
};
/** Abusive (outcomeWhenTrue reject) at 0.95: rejected. */
const REJECT: Behaviour = {
  kind: 'answer',
  confidence: 0.95,
  choose: { department: 'technical', abusive: true },
};
/** Department at 0.4, below its 0.6 threshold: review. */
const REVIEW: Behaviour = { kind: 'answer', confidence: 0.4, choose: { abusive: false } };
/** Unreadable model output: a failed judgment, in review with no answers. */
const FAILED: Behaviour = { kind: 'content', content: 'not json' };

/** The triage document with only its department question: p_min is always the department's. */
function departmentOnly() {
  const document = triageDocument();
  document.questions = document.questions.filter((question) => question.id === 'department');
  return document;
}

interface Item {
  id: string;
  status: string;
  auditProbability: number | null;
  auditSelected: boolean | null;
}

const ids = (items: Item[]) => items.map((item) => item.id);

describe('audit sampling', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let db: pg.Client;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX });
    db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterEach(() => gateway.reset());
  afterAll(async () => {
    await db.end();
    await api.close();
    await gateway.close();
  });

  async function judge(client: Client, packId: string, behaviour: Behaviour = ACCEPT): Promise<string> {
    gateway.next(behaviour);
    const res = await client.post('/api/judge', { packId, ticket: TICKET });
    if (res.status !== 200) throw new Error(`judge: ${res.status} ${res.text}`);
    return res.body.evaluationId;
  }

  async function setAudit(client: Client, packId: string, rate: number, strategy = 'uniform') {
    const res = await client.put(`/api/packs/${packId}/audit`, { rate, strategy });
    if (res.status !== 200) throw new Error(`audit settings: ${res.status} ${res.text}`);
    return res.body;
  }

  async function read(client: Client, id: string): Promise<Item & Record<string, unknown>> {
    return (await client.get(`/api/evaluations/${id}`)).body;
  }

  describe('settings: GET and PUT /api/packs/{packId}/audit', () => {
    it('answers the defaults, then the saved settings, with a key or the session', async () => {
      const { keyed, session } = await newTenant(api.url);
      const pack = await createPack(keyed);
      expect(await keyed.get(`/api/packs/${pack.id}/audit`)).toMatchObject({
        status: 200,
        body: { rate: 0, strategy: 'uncertainty' },
      });
      const put = await keyed.put(`/api/packs/${pack.id}/audit`, { rate: 0.25, strategy: 'uniform' });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ rate: 0.25, strategy: 'uniform' });
      expect((await session.get(`/api/packs/${pack.id}/audit`)).body).toEqual({
        rate: 0.25,
        strategy: 'uniform',
      });
      const bySession = await session.put(`/api/packs/${pack.id}/audit`, {
        rate: 1,
        strategy: 'uncertainty',
      });
      expect(bySession.body).toEqual({ rate: 1, strategy: 'uncertainty' });
      expect(await setAudit(keyed, pack.id, 0, 'uniform')).toEqual({ rate: 0, strategy: 'uniform' });
      // The pack itself is untouched: not "edited", no new version.
      expect((await keyed.get(`/api/packs/${pack.id}`)).body.updatedAt).toBe(pack.updatedAt);
    });

    it.each([
      ['a rate above 1', { rate: 1.5, strategy: 'uniform' }, 'rate'],
      ['a negative rate', { rate: -0.1, strategy: 'uniform' }, 'rate'],
      ['a rate as text', { rate: '0.5', strategy: 'uniform' }, 'rate'],
      ['a null rate', { rate: null, strategy: 'uniform' }, 'rate'],
      ['a rate as an array', { rate: [0.5], strategy: 'uniform' }, 'rate'],
      ['no rate', { strategy: 'uniform' }, 'rate'],
      ['an unknown strategy', { rate: 0.5, strategy: 'random' }, 'strategy'],
      ['no strategy', { rate: 0.5 }, 'strategy'],
      ['another field', { rate: 0.5, strategy: 'uniform', seed: 1 }, 'seed'],
      ['an empty object', {}, 'rate'],
      ['an array', [{ rate: 0.5, strategy: 'uniform' }], 'body'],
    ])('refuses %s with 400 naming the field, and changes nothing', async (_, body, path) => {
      const { keyed } = await newTenant(api.url);
      const pack = await createPack(keyed);
      await setAudit(keyed, pack.id, 0.1, 'uniform');
      const res = await keyed.put(`/api/packs/${pack.id}/audit`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid request',
        issues: expect.arrayContaining([expect.objectContaining({ path })]),
      });
      expect(Object.keys(res.body).sort()).toEqual(['error', 'issues']);
      expect((await keyed.get(`/api/packs/${pack.id}/audit`)).body).toEqual({
        rate: 0.1,
        strategy: 'uniform',
      });
    });

    it('refuses a body that is not JSON with 400', async () => {
      const { keyed } = await newTenant(api.url);
      const pack = await createPack(keyed);
      const res = await keyed.request('PUT', `/api/packs/${pack.id}/audit`, {
        raw: '{"rate": 0.5,',
        contentType: 'application/json',
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    });

    it("is 404 `pack not found` for another user's pack, a deleted one and a malformed id", async () => {
      const alice = await newTenant(api.url);
      const bob = await newTenant(api.url);
      const pack = await createPack(alice.keyed);
      const deleted = await createPack(alice.keyed);
      await alice.keyed.delete(`/api/packs/${deleted.id}`);
      const body = { rate: 1, strategy: 'uniform' };
      for (const [client, id] of [
        [bob.keyed, pack.id],
        [bob.session, pack.id],
        [alice.keyed, deleted.id],
        [alice.keyed, 'not-a-uuid'],
      ] as const) {
        for (const res of [
          await client.get(`/api/packs/${id}/audit`),
          await client.put(`/api/packs/${id}/audit`, body),
        ]) {
          expect(res.status).toBe(404);
          expect(res.body).toEqual({ error: 'pack not found' });
        }
      }
      expect((await alice.keyed.get(`/api/packs/${pack.id}/audit`)).body).toEqual({
        rate: 0,
        strategy: 'uncertainty',
      });
    });

    it('takes packs:read to read and packs:write to change', async () => {
      const { session, keyed } = await newTenant(api.url);
      const pack = await createPack(keyed);
      const { client: reader } = await createKey(session, ['packs:read']);
      const { client: writer } = await createKey(session, ['packs:write']);
      const { client: judge } = await createKey(session, ['judgments:read', 'judgments:run']);
      expect((await reader.get(`/api/packs/${pack.id}/audit`)).status).toBe(200);
      const refused = await reader.put(`/api/packs/${pack.id}/audit`, { rate: 1, strategy: 'uniform' });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: 'missing permission packs:write' });
      expect((await writer.put(`/api/packs/${pack.id}/audit`, { rate: 1, strategy: 'uniform' })).status).toBe(
        200,
      );
      expect((await writer.get(`/api/packs/${pack.id}/audit`)).body).toEqual({
        error: 'missing permission packs:read',
      });
      expect((await judge.get(`/api/packs/${pack.id}/audit`)).status).toBe(403);
      expect((await new Client(api.url).get(`/api/packs/${pack.id}/audit`)).status).toBe(401);
    });
  });

  describe('the draw, stored with the evaluation', () => {
    it('draws nothing at rate 0 (the default): the audit fields are null', async () => {
      const { keyed } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed);
      for (const behaviour of [ACCEPT, REJECT, REVIEW]) {
        const evaluation = await read(keyed, await judge(keyed, pack.id, behaviour));
        expect(evaluation).toMatchObject({ auditProbability: null, auditSelected: null });
      }
      const { rows } = await db.query(
        'SELECT count(*)::int AS n FROM evaluations WHERE pack_id = $1 AND (audit_probability IS NOT NULL OR audit_selected IS NOT NULL)',
        [pack.id],
      );
      expect(rows[0].n).toBe(0);
    });

    it('selects every live evaluation with π = 1 at rate 1, uniform: API and MCP, accept, reject and review', async () => {
      const { keyed, user } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed);
      await setAudit(keyed, pack.id, 1, 'uniform');
      const judged = [
        await judge(keyed, pack.id, ACCEPT),
        await judge(keyed, pack.id, REJECT),
        await judge(keyed, pack.id, REVIEW),
        await judge(keyed, pack.id, FAILED),
      ];
      const clientId = (await registerClient(api.url)).body.client_id as string;
      const { tokens } = await authorizeAndExchange(api.url, clientId, {
        email: user.email,
        password: PASSWORD,
      });
      gateway.next(ACCEPT);
      const mcp = await mcpCall(
        api.url,
        tokens.access_token,
        callTool('judge_ticket', { packId: pack.id, ticket: TICKET }),
      );
      judged.push(mcp.body.result.structuredContent.evaluationId);
      const evaluations = await Promise.all(judged.map((id) => read(keyed, id)));
      expect(evaluations.map((e) => [e.source, e.status])).toEqual([
        ['api', 'accept'],
        ['api', 'reject'],
        ['api', 'review'],
        ['api', 'review'],
        ['mcp', 'accept'],
      ]);
      for (const evaluation of evaluations)
        expect(evaluation).toMatchObject({ auditProbability: 1, auditSelected: true });
      // Beside `result`, never inside it.
      expect(evaluations[0].result).not.toHaveProperty('auditProbability');
    });

    it('never draws the playground', async () => {
      const { keyed, session } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed);
      await setAudit(keyed, pack.id, 1, 'uniform');
      gateway.next(ACCEPT);
      const res = await session.post('/app/playground/judge', { packId: pack.id, ticket: TICKET });
      expect(res.status).toBe(200);
      expect(await read(keyed, res.body.evaluationId)).toMatchObject({
        source: 'playground',
        auditProbability: null,
        auditSelected: null,
      });
    });

    it('uses new settings from the next judgment on (the live-version cache is dropped)', async () => {
      const { keyed } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed);
      const before = await judge(keyed, pack.id);
      await setAudit(keyed, pack.id, 1, 'uniform');
      const during = await judge(keyed, pack.id);
      await setAudit(keyed, pack.id, 0, 'uniform');
      const after = await judge(keyed, pack.id);
      expect((await read(keyed, before)).auditProbability).toBeNull();
      expect(await read(keyed, during)).toMatchObject({ auditProbability: 1, auditSelected: true });
      expect((await read(keyed, after)).auditProbability).toBeNull();
      // An evaluation keeps its draw.
      expect((await read(keyed, during)).auditSelected).toBe(true);
    });

    it('selects what the seed says: AUDIT_SEED fixes the random numbers of a process', async () => {
      const seed = 20_260_101;
      // A process of its own, so its sequence starts here (in-process apps share one data source).
      const seeded = await startApiProcess({
        MODEL_GATEWAY_URL: gateway.url,
        REDIS_PREFIX: PREFIX,
        AUDIT_SEED: String(seed),
      });
      try {
        const { keyed } = await newTenant(seeded.url);
        const pack = await createPublishedPack(keyed);
        await setAudit(keyed, pack.id, 0.5, 'uniform');
        const selected: boolean[] = [];
        for (let i = 0; i < 12; i++) {
          gateway.next(ACCEPT);
          const res = await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET });
          const evaluation = await read(keyed, res.body.evaluationId);
          expect(evaluation.auditProbability).toBe(0.5);
          selected.push(evaluation.auditSelected as boolean);
        }
        // The same mulberry32 sequence, computed here: selected iff the i-th number is below 0.5.
        const next = seededRandom(seed);
        expect(selected).toEqual(Array.from({ length: 12 }, () => next() < 0.5));
        expect(selected).toContain(true);
        expect(selected).toContain(false);
      } finally {
        await stopWorker(seeded);
      }
    });

    it('uncertainty: π = rate until ū is known, then rate·(0.2 + 0.8·u/ū), u = √(1 − p); a failed judgment has u = 1', async () => {
      const { keyed } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed, departmentOnly());
      await setAudit(keyed, pack.id, 0.1, 'uncertainty');
      // No drawn decision yet: ū unknown, π = rate. Department at 0.9, 0.9, 0.9 and 0.8 (no map, so
      // c = p): u = √0.1 = 0.316228 ×3, √0.2 = 0.447214.
      const first = [];
      for (const confidence of [0.9, 0.9, 0.9, 0.8])
        first.push(
          await judge(keyed, pack.id, { kind: 'answer', confidence, choose: { department: 'technical' } }),
        );
      for (const id of first) expect((await read(keyed, id)).auditProbability).toBe(0.1);
      // A fresh process reads ū from the stored decisions: (3·0.316228 + 0.447214) / 4 = 0.348974.
      const fresh = await startApiProcess({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX });
      try {
        const viaFresh = new Client(fresh.url).withKey(keyed.apiKey!);
        const judgeThere = async (behaviour: Behaviour) => {
          gateway.next(behaviour);
          return (await viaFresh.post('/api/judge', { packId: pack.id, ticket: TICKET })).body.evaluationId;
        };
        const accepted = await judgeThere({
          kind: 'answer',
          confidence: 0.7,
          choose: { department: 'technical' },
        });
        const reviewed = await judgeThere({
          kind: 'answer',
          confidence: 0.4,
          choose: { department: 'technical' },
        });
        const failed = await judgeThere(FAILED);
        // u = √0.3 = 0.547723: 0.1·(0.2 + 0.8·0.547723/0.348974) = 0.1·(0.2 + 1.255617) = 0.145562
        const a = await read(keyed, accepted);
        expect(a.status).toBe('accept');
        expect(a.auditProbability).toBeCloseTo(0.145562, 6);
        // u = √0.6 = 0.774597 (in review, drawn the same way): 0.1·(0.2 + 0.8·0.774597/0.348974) = 0.197571
        const r = await read(keyed, reviewed);
        expect(r.status).toBe('review');
        expect(r.auditProbability).toBeCloseTo(0.197571, 6);
        // A failed judgment, u = 1: 0.1·(0.2 + 0.8·1/0.348974) = 0.1·(0.2 + 2.292433) = 0.249243
        const f = await read(keyed, failed);
        expect(f).toMatchObject({ status: 'review', auditSelected: expect.any(Boolean) });
        expect(f.auditProbability).toBeCloseTo(0.249243, 6);
      } finally {
        await stopWorker(fresh);
      }
    });

    it('uncertainty: u takes a question’s calibrated probability where its map exists', async () => {
      const { keyed } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed, departmentOnly());
      // 12 judgments at 0.9, audit off, each labeled as wrong: the fitted map is the constant
      // 0.1467 (calibration-fit.e2e-spec.ts computes it by hand), whatever the judge's probability.
      for (let i = 0; i < 12; i++) {
        const id = await judge(keyed, pack.id, {
          kind: 'answer',
          confidence: 0.9,
          choose: { department: 'technical' },
        });
        const labeled = await keyed.post(`/api/evaluations/${id}/labels`, {
          questionId: 'department',
          answer: { type: 'choice', choice: 'billing' },
        });
        expect(labeled.status).toBe(201);
      }
      expect((await keyed.post(`/api/packs/${pack.id}/calibration/fit`)).body.questions[0].map).toMatchObject(
        {
          method: 'platt',
          labels: 12,
        },
      );
      const map = (await keyed.get(`/api/packs/${pack.id}/calibration`)).body.questions[0].calibrationMap;
      for (const point of map.points) expect(point.calibrated).toBeCloseTo(0.1467, 4);
      await setAudit(keyed, pack.id, 0.1, 'uncertainty');
      // Every u is then √(1 − 0.1467), the same at 0.95 as at 0.6, so ū equals it and π = rate for
      // any probability; without the map, u would be √0.05 and √0.4, and π 0.212 apart (above).
      for (const confidence of [0.95, 0.6])
        await judge(keyed, pack.id, { kind: 'answer', confidence, choose: { department: 'technical' } });
      const fresh = await startApiProcess({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX });
      try {
        const viaFresh = new Client(fresh.url).withKey(keyed.apiKey!);
        for (const confidence of [0.99, 0.65]) {
          gateway.next({ kind: 'answer', confidence, choose: { department: 'technical' } });
          const judged = await viaFresh.post('/api/judge', { packId: pack.id, ticket: TICKET });
          const evaluation = await read(keyed, judged.body.evaluationId);
          expect(evaluation.auditProbability).toBeCloseTo(0.1, 9);
        }
      } finally {
        await stopWorker(fresh);
      }
    }, 90_000);
  });

  describe('the audit queue: GET /api/reviews?queue=audit', () => {
    it('lists the selected automatic decisions only, newest first, with auditProbability; the filters work', async () => {
      const { keyed } = await newTenant(api.url);
      const full = await createPublishedPack(keyed, triageDocument(), 'full');
      const small = await createPublishedPack(keyed, departmentOnly(), 'small');
      const off = await createPublishedPack(keyed, triageDocument(), 'off');
      await setAudit(keyed, full.id, 1, 'uniform');
      await setAudit(keyed, small.id, 1, 'uniform');
      const accepted = await judge(keyed, full.id, ACCEPT);
      await judge(keyed, full.id, REVIEW); // selected, but in the review queue
      const rejected = await judge(keyed, full.id, REJECT);
      await judge(keyed, off.id, ACCEPT); // not drawn
      const smallAccepted = await judge(keyed, small.id, { ...ACCEPT, choose: { department: 'billing' } });
      const list = async (query = '') => (await keyed.get(`/api/reviews?queue=audit${query}`)).body;

      const page = await list();
      expect(ids(page.items)).toEqual([smallAccepted, rejected, accepted]);
      expect(page).toMatchObject({ nextCursor: null, total: 3, totalCapped: false });
      expect(page.items[1]).toEqual({
        id: rejected,
        packId: full.id,
        packVersionId: full.liveVersionId,
        source: 'api',
        status: 'reject',
        modelId: 'fake-model-2026-01-01',
        latencyMs: expect.any(Number),
        createdAt: expect.any(String),
        result: expect.objectContaining({ status: 'reject' }),
        redactedTicket: expect.objectContaining({ subject: TICKET.subject }),
        auditProbability: 1,
        auditSelected: true,
        calibrated: null,
        calibratedWith: null,
      });
      expect(ids((await list(`&packId=${full.id}`)).items)).toEqual([rejected, accepted]);
      expect(ids((await list('&questionId=abusive')).items)).toEqual([rejected, accepted]);
      expect(ids((await list('&source=mcp')).items)).toEqual([]);
      expect((await list(`&packId=${off.id}`)).total).toBe(0);
      // `queue=review` is the review queue, as without `queue`.
      const review = (await keyed.get('/api/reviews?queue=review')).body;
      expect(review).toEqual((await keyed.get('/api/reviews')).body);
      expect(review.items.map((item: Item) => item.status)).toEqual(['review']);
      expect(review.items[0]).toMatchObject({ auditProbability: 1, auditSelected: true });
    });

    it('labels an audit item with the label routes, and `labeled` follows', async () => {
      const { keyed } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed);
      await setAudit(keyed, pack.id, 1, 'uniform');
      const first = await judge(keyed, pack.id, ACCEPT);
      const second = await judge(keyed, pack.id, REJECT);
      const label = await keyed.post(`/api/evaluations/${first}/labels`, {
        questionId: 'department',
        answer: { type: 'choice', choice: 'billing' },
      });
      expect(label.status).toBe(201);
      expect(label.body).toMatchObject({ questionId: 'department', agreement: false });
      const labeled = (await keyed.get('/api/reviews?queue=audit&labeled=true')).body;
      expect(ids(labeled.items)).toEqual([first]);
      expect(labeled.total).toBe(1);
      expect(ids((await keyed.get('/api/reviews?queue=audit&labeled=false')).body.items)).toEqual([second]);
      expect((await read(keyed, first)).labels).toHaveLength(1);
      expect((await keyed.delete(`/api/evaluations/${first}/labels/${label.body.id}`)).status).toBe(204);
      expect(ids((await keyed.get('/api/reviews?queue=audit&labeled=false')).body.items)).toEqual([
        second,
        first,
      ]);
    });

    it('pages with a cursor, counts every page, and refuses a cursor of another queue or order', async () => {
      const { keyed } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed);
      await setAudit(keyed, pack.id, 1, 'uniform');
      gateway.set(ACCEPT);
      const created: string[] = [];
      for (let i = 0; i < 52; i++)
        created.push((await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET })).body.evaluationId);
      const page1 = (await keyed.get('/api/reviews?queue=audit')).body;
      expect(page1.items).toHaveLength(50);
      expect(page1).toMatchObject({ total: 52, totalCapped: false });
      const cursor = encodeURIComponent(page1.nextCursor);
      const page2 = (await keyed.get(`/api/reviews?queue=audit&cursor=${cursor}`)).body;
      expect(page2).toMatchObject({ nextCursor: null, total: 52 });
      expect([...ids(page1.items), ...ids(page2.items)]).toEqual([...created].reverse());
      for (const query of [
        `cursor=${cursor}`,
        `queue=review&cursor=${cursor}`,
        `queue=audit&order=value&cursor=${cursor}`,
      ]) {
        const res = await keyed.get(`/api/reviews?${query}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'invalid cursor' });
      }
      const other = await newTenant(api.url);
      expect((await other.keyed.get(`/api/reviews?queue=audit&cursor=${cursor}`)).status).toBe(400);
    });

    it.each([
      ['queue=audits', 'queue'],
      ['queue=', 'queue'],
      ['order=oldest', 'order'],
      ['order=VALUE', 'order'],
      ['queue=audit&queue=review', 'queue'],
    ])('refuses %s with 400 naming it', async (query, path) => {
      const { keyed } = await newTenant(api.url);
      const res = await keyed.get(`/api/reviews?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid request',
        issues: expect.arrayContaining([expect.objectContaining({ path })]),
      });
    });

    it("never shows another user's audit items", async () => {
      const alice = await newTenant(api.url);
      const bob = await newTenant(api.url);
      const pack = await createPublishedPack(alice.keyed);
      await setAudit(alice.keyed, pack.id, 1, 'uniform');
      await judge(alice.keyed, pack.id, ACCEPT);
      for (const query of ['queue=audit', `queue=audit&packId=${pack.id}`, 'queue=audit&order=value'])
        expect((await bob.keyed.get(`/api/reviews?${query}`)).body).toEqual({
          items: [],
          nextCursor: null,
          total: 0,
          totalCapped: false,
        });
      expect((await alice.keyed.get('/api/reviews?queue=audit')).body.total).toBe(1);
    });
  });

  describe('the value order: GET /api/reviews?order=value', () => {
    const department = (confidence: number): Behaviour => ({ kind: 'answer', confidence });

    it('orders by (1 − p_min) / (1 + labels of that question in the version), ties newest first', async () => {
      const { keyed } = await newTenant(api.url);
      const a = await createPublishedPack(keyed, departmentOnly(), 'a');
      const b = await createPublishedPack(keyed, departmentOnly(), 'b');
      const a1 = await judge(keyed, a.id, department(0.3)); // v = 0.7
      const a2 = await judge(keyed, a.id, department(0.45)); // v = 0.55
      const b1 = await judge(keyed, b.id, department(0.5)); // v = 0.5
      const b2 = await judge(keyed, b.id, department(0.3)); // v = 0.7, newer than a1
      const failed = await judge(keyed, a.id, FAILED); // no answers: v = 0, last
      const order = async (query = '') =>
        ids((await keyed.get(`/api/reviews?order=value${query}`)).body.items);
      expect(await order()).toEqual([b2, a1, a2, b1, failed]);
      // The default order is unchanged: newest first.
      expect(ids((await keyed.get('/api/reviews')).body.items)).toEqual([failed, b2, b1, a2, a1]);
      // One label on version a's department: a's values halve (0.35, 0.275); b's stay.
      await keyed.post(`/api/evaluations/${a2}/labels`, {
        questionId: 'department',
        answer: { type: 'choice', choice: 'billing' },
      });
      expect(await order()).toEqual([b2, b1, a1, a2, failed]);
      expect(await order('&labeled=false')).toEqual([b2, b1, a1, failed]);
      expect(await order(`&packId=${a.id}`)).toEqual([a1, a2, failed]);
      expect(await order('&questionId=department')).toEqual([b2, b1, a1, a2]);
      const page = (await keyed.get('/api/reviews?order=value')).body;
      expect(page).toMatchObject({ nextCursor: null, total: 5, totalCapped: false });
    });

    it('takes the question at p_min with the fewest labels when several share it', async () => {
      const { keyed } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed);
      // Department and complexity at 0.4, abusive at 0.6: p_min 0.4 on two questions.
      const labeledOne = await judge(keyed, pack.id, REVIEW);
      const other = await judge(keyed, pack.id, { ...REVIEW, confidence: 0.45 });
      await keyed.post(`/api/evaluations/${labeledOne}/labels`, {
        questionId: 'department',
        answer: { type: 'choice', choice: 'billing' },
      });
      // Complexity has no label: v = 0.6 / 1 for the first, 0.55 for the other (not 0.6 / 2).
      expect(ids((await keyed.get('/api/reviews?order=value')).body.items)).toEqual([labeledOne, other]);
    });

    it('pages through the value order with a cursor, none lost or repeated', async () => {
      const { keyed } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed, departmentOnly());
      const confidences = [0.3, 0.4, 0.5];
      const created: Array<{ id: string; value: number; at: number }> = [];
      for (let i = 0; i < 56; i++) {
        const confidence = confidences[i % 3];
        created.push({
          id: await judge(keyed, pack.id, department(confidence)),
          value: 1 - confidence,
          at: i,
        });
      }
      const expected = [...created].sort((x, y) => y.value - x.value || y.at - x.at).map((e) => e.id);
      const page1 = (await keyed.get('/api/reviews?order=value')).body;
      expect(page1.items).toHaveLength(50);
      expect(page1.total).toBe(56);
      const page2 = (
        await keyed.get(`/api/reviews?order=value&cursor=${encodeURIComponent(page1.nextCursor)}`)
      ).body;
      expect(page2.nextCursor).toBeNull();
      expect([...ids(page1.items), ...ids(page2.items)]).toEqual(expected);
      // A value cursor is not a newest-first cursor, nor an audit one.
      for (const query of ['', '&queue=audit'])
        expect(
          (await keyed.get(`/api/reviews?cursor=${encodeURIComponent(page1.nextCursor)}${query}`)).status,
        ).toBe(400);
    });
  });
});

describe('audit sampling on the worker: inbound webhooks and simulations', () => {
  const prefix = `${PREFIX}-worker`;
  let api: TestApi;
  let gateway: FakeGateway;
  let worker: RunningProcess;
  let db: pg.Client;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    gateway.set(ACCEPT);
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: prefix });
    worker = await startWorker({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: prefix });
    db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    await db.end();
    await stopWorker(worker);
    await api.close();
    await gateway.close();
  });

  it('draws an inbound webhook evaluation at the pack’s settings, and never a simulation’s', async () => {
    const { client: session } = await signUp(api.url);
    const { client: keyed } = await createKey(session);
    const pack = await createPublishedPack(keyed);
    await keyed.put(`/api/packs/${pack.id}/audit`, { rate: 1, strategy: 'uniform' });
    const inbound = await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET });
    expect(inbound.status).toBe(202);
    const [item] = await eventually(async () => {
      const { items } = (await keyed.get(`/api/evaluations?packId=${pack.id}&source=webhook`)).body;
      return items.length ? items : undefined;
    });
    expect((await keyed.get(`/api/evaluations/${item.id}`)).body).toMatchObject({
      source: 'webhook',
      status: 'accept',
      auditProbability: 1,
      auditSelected: true,
    });
    expect(ids((await keyed.get('/api/reviews?queue=audit&source=webhook')).body.items)).toEqual([item.id]);

    const dataset = await createDataset(keyed, 3, 'audit');
    const simulation = (await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id }))
      .body;
    await eventually(async () => {
      const { status } = (await keyed.get(`/api/simulations/${simulation.id}`)).body;
      return status === 'completed' ? status : undefined;
    }, 60_000);
    const { rows } = await db.query(
      'SELECT audit_probability AS p, audit_selected AS s FROM evaluations WHERE simulation_id = $1',
      [simulation.id],
    );
    expect(rows).toEqual([
      { p: null, s: null },
      { p: null, s: null },
      { p: null, s: null },
    ]);
  }, 90_000);
});
