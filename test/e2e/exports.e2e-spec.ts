import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, newTenant, type Client, type TestResponse } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { seedEvaluations } from '../support/seed-evaluations.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

/** Its own Redis namespace: only this file's worker takes these jobs. */
const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-exports`;

/** Cells that exercise the CSV quoting and the formula guard. */
const TRICKY = ['Refund, please', 'He said "hi"', '=HYPERLINK("x")', '@SUM(A1)', '-1 star', '+ plus'];

/** What a spreadsheet shows for a text cell: the guard prefixes a formula-like start with `'`. */
function guarded(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** A CSV answer read back: its header, then its rows (all as text). */
function table(res: TestResponse): { header: string[]; rows: string[][] } {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="[\w.-]+\.csv"$/);
  // RFC 4180 line ends, and nothing but a header (and rows) in the body.
  expect(res.text.endsWith('\r\n')).toBe(true);
  const records: string[][] = parse(res.text, { bom: true });
  const [header, ...rows] = records;
  return { header, rows };
}

function expectJsonError(res: TestResponse, status: number, error: string | RegExp): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  if (typeof error === 'string') expect(res.body).toEqual({ error });
  else expect(res.body.error).toMatch(error);
}

async function waitForStatus(client: Client, id: string, status: string) {
  return eventually(async () => {
    const res = await client.get(`/api/simulations/${id}`);
    return res.body.status === status ? res.body : undefined;
  }, 60_000);
}

describe('CSV exports', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let worker: RunningProcess;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX });
    worker = await startWorker({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX });
  });
  afterEach(() => gateway.reset());
  afterAll(async () => {
    await stopWorker(worker);
    await api.close();
    await gateway.close();
  });

  describe('GET /api/evaluations/export', () => {
    it('writes every evaluation the list gives, quoted and guarded, with the answers as JSON', async () => {
      const { keyed } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed);
      for (const [i, subject] of TRICKY.entries()) {
        const ticket = { ...TICKET, externalId: `X-${i}`, subject: `${subject}\nsecond line` };
        expect((await keyed.post('/api/judge', { packId: pack.id, ticket })).status).toBe(200);
      }
      const { header, rows } = table(await keyed.get('/api/evaluations/export'));
      expect(header).toEqual([
        'id',
        'createdAt',
        'source',
        'status',
        'packId',
        'packVersionId',
        'simulationId',
        'externalId',
        'subject',
        'answers',
      ]);
      const listed = (await keyed.get('/api/evaluations')).body.items;
      expect(rows).toEqual(
        listed.map((item: any) => [
          item.id,
          item.createdAt,
          item.source,
          item.status,
          item.packId,
          item.packVersionId,
          '',
          item.externalId,
          guarded(item.subject),
          expect.any(String),
        ]),
      );
      // Newest first, as the list: the last ticket judged is the first row.
      expect(rows[0][8]).toBe(`'+ plus\nsecond line`);
      expect(rows.map((row) => row[8])).toContain(`'=HYPERLINK("x")\nsecond line`);
      expect(rows.map((row) => row[8])).toContain('Refund, please\nsecond line');
      // The fake gateway's answers, as labels write them.
      expect(JSON.parse(rows[0][9])).toEqual({ department: 'billing', abusive: 'true', complexity: '1' });
    });

    it("takes the list's filters, reads past one batch, and answers a header alone for an empty set", async () => {
      const { keyed } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed);
      const other = await createPublishedPack(keyed, undefined, 'Other');
      const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await db.connect();
      try {
        // 1,234 rows: more than two batches of 500.
        await seedEvaluations(db, { packId: pack.id, rows: 1234, days: 3 });
      } finally {
        await db.end();
      }
      await keyed.post('/api/judge', { packId: other.id, ticket: TICKET });

      const all = table(await keyed.get('/api/evaluations/export')).rows;
      expect(all).toHaveLength(1235);
      expect(new Set(all.map((row) => row[0])).size).toBe(1235);
      const times = all.map((row) => row[1]);
      expect(times).toEqual([...times].sort().reverse());

      // The list's order, its search and its time window apply too.
      const oldest = table(await keyed.get('/api/evaluations/export?order=oldest')).rows;
      expect(oldest.map((row) => row[0])).toEqual(all.map((row) => row[0]).reverse());
      const searched = table(
        await keyed.get(`/api/evaluations/export?q=${encodeURIComponent(TICKET.externalId)}`),
      ).rows;
      expect(searched.length).toBeGreaterThan(0);
      expect(searched.every((row) => row[7].startsWith(TICKET.externalId))).toBe(true);
      const since = all[9][1];
      expect(
        table(await keyed.get(`/api/evaluations/export?from=${encodeURIComponent(since)}`)).rows,
      ).toHaveLength(10);

      const ofPack = table(await keyed.get(`/api/evaluations/export?packId=${pack.id}`)).rows;
      expect(ofPack).toHaveLength(1234);
      const rejected = table(await keyed.get(`/api/evaluations/export?packId=${pack.id}&status=reject`)).rows;
      expect(rejected.length).toBeGreaterThan(0);
      expect(rejected.every((row) => row[3] === 'reject')).toBe(true);
      const listedRejected = (await keyed.get(`/api/evaluations?packId=${pack.id}&status=reject`)).body.items;
      expect(rejected.slice(0, listedRejected.length).map((row) => row[0])).toEqual(
        listedRejected.map((item: { id: string }) => item.id),
      );

      const none = table(await keyed.get(`/api/evaluations/export?simulationId=${randomUUID()}`));
      expect(none.rows).toEqual([]);
      expect(none.header[0]).toBe('id');
      const stranger = await newTenant(api.url);
      expect(table(await stranger.keyed.get('/api/evaluations/export')).rows).toEqual([]);
      expect(table(await stranger.keyed.get(`/api/evaluations/export?packId=${pack.id}`)).rows).toEqual([]);
    });

    it('refuses a bad filter, a cursor and a key without judgments:read with the JSON error', async () => {
      const { keyed, session } = await newTenant(api.url);
      expectJsonError(await keyed.get('/api/evaluations/export?status=maybe'), 400, /./);
      expectJsonError(await keyed.get('/api/evaluations/export?source=nowhere'), 400, /./);
      expectJsonError(await keyed.get('/api/evaluations/export?cursor=abc'), 400, /./);
      expectJsonError(
        await keyed.get('/api/evaluations/export?from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z'),
        400,
        'from must not be later than to',
      );
      expectJsonError(await keyed.get('/api/evaluations/export?order=sideways'), 400, /./);
      const { client: runOnly } = await createKey(session, ['judgments:run']);
      expectJsonError(await runOnly.get('/api/evaluations/export'), 403, 'missing permission judgments:read');
    });
  });

  describe('simulation exports', () => {
    it('writes the ticket-level results and the changed tickets of a comparison', async () => {
      const { keyed } = await newTenant(api.url);
      const other = await newTenant(api.url);
      const pack = await createPublishedPack(keyed);
      const dataset = (await keyed.post('/api/datasets', { name: 'tricky' })).body;
      const tickets = TRICKY.map((subject, i) => ({ ...TICKET, externalId: `S-${i}`, subject }));
      expect((await keyed.post(`/api/datasets/${dataset.id}/tickets`, { tickets })).status).toBe(200);
      const start = async () =>
        (await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id })).body.id as string;
      const first = await start();
      await waitForStatus(keyed, first, 'completed');
      gateway.set({ kind: 'answer', choose: { department: 'technical' } });
      const second = await start();
      await waitForStatus(keyed, second, 'completed');

      const results = table(await keyed.get(`/api/simulations/${first}/export`));
      expect(results.header).toEqual([
        'position',
        'externalId',
        'subject',
        'status',
        'evaluationId',
        'answer:department',
        'answer:abusive',
        'answer:complexity',
      ]);
      const evaluations = (await keyed.get(`/api/evaluations?simulationId=${first}`)).body.items;
      const byExternalId = new Map(evaluations.map((item: any) => [item.externalId, item]));
      expect(results.rows).toEqual(
        TRICKY.map((subject, i) => {
          const evaluation: any = byExternalId.get(`S-${i}`);
          return [
            String(i),
            `S-${i}`,
            guarded(subject),
            evaluation.status,
            evaluation.id,
            'billing',
            'true',
            '1',
          ];
        }),
      );

      const compared = (await keyed.get(`/api/simulations/${first}/compare/${second}`)).body;
      const changes = table(await keyed.get(`/api/simulations/${first}/compare/${second}/export`));
      expect(changes.header).toEqual([
        'externalId',
        'subject',
        'fromStatus',
        'toStatus',
        'before:abusive',
        'after:abusive',
        'before:complexity',
        'after:complexity',
        'before:department',
        'after:department',
      ]);
      expect(changes.rows).toEqual(
        compared.changedTickets.map((ticket: any) => [
          ticket.externalId,
          guarded(ticket.subject),
          ticket.fromStatus,
          ticket.toStatus,
          'true',
          'true',
          '1',
          '1',
          'billing',
          'technical',
        ]),
      );
      expect(changes.rows).toHaveLength(TRICKY.length);
      // Nothing changed between a run and itself: a header alone.
      expect(table(await keyed.get(`/api/simulations/${first}/compare/${first}/export`)).rows).toEqual([]);

      // The JSON compare's 404 and 409, with its JSON body.
      for (const id of [randomUUID(), 'not-a-uuid']) {
        expectJsonError(await keyed.get(`/api/simulations/${id}/export`), 404, 'simulation not found');
        expectJsonError(
          await keyed.get(`/api/simulations/${first}/compare/${id}/export`),
          404,
          'simulation not found',
        );
      }
      expectJsonError(await other.keyed.get(`/api/simulations/${first}/export`), 404, 'simulation not found');
      expectJsonError(
        await other.keyed.get(`/api/simulations/${first}/compare/${second}/export`),
        404,
        'simulation not found',
      );
      const empty = (await keyed.post('/api/datasets', { name: 'empty' })).body;
      const elsewhere = (await keyed.post('/api/simulations', { datasetId: empty.id, packId: pack.id })).body
        .id;
      await waitForStatus(keyed, elsewhere, 'completed');
      expectJsonError(
        await keyed.get(`/api/simulations/${first}/compare/${elsewhere}/export`),
        409,
        'simulations are over different datasets',
      );
      // A run with nothing judged: a header alone.
      const nothing = table(await keyed.get(`/api/simulations/${elsewhere}/export`));
      expect(nothing.rows).toEqual([]);
      expect(nothing.header).toHaveLength(8);
    });
  });

  describe('GET /api/labels/export', () => {
    it("writes every label of the user with the judge's answer, filtered by pack or version", async () => {
      const { keyed } = await newTenant(api.url);
      const stranger = await newTenant(api.url);
      const pack = await createPublishedPack(keyed);
      const other = await createPublishedPack(keyed, undefined, 'Other');
      const judge = async (packId: string) =>
        (await keyed.post('/api/judge', { packId, ticket: TICKET })).body.evaluationId as string;
      const [a, b, c] = [await judge(pack.id), await judge(pack.id), await judge(other.id)];
      const label = async (evaluationId: string, body: object) => {
        const res = await keyed.post(`/api/evaluations/${evaluationId}/labels`, body);
        expect(res.status).toBe(201);
        return res.body;
      };
      await label(a, {
        questionId: 'department',
        answer: { type: 'choice', choice: 'technical' },
        note: '=cmd',
      });
      await label(a, {
        questionId: 'abusive',
        answer: { type: 'boolean', probability: 1 },
        note: 'a, "b"\nc',
      });
      await label(b, { questionId: 'complexity', answer: { type: 'score', score: 1 } });
      await label(c, { questionId: 'department', answer: { type: 'choice', choice: 'billing' } });

      const all = table(await keyed.get('/api/labels/export'));
      expect(all.header).toEqual([
        'evaluationId',
        'questionId',
        'label',
        'judgeAnswer',
        'agreement',
        'note',
        'createdAt',
        'packId',
        'packVersionId',
      ]);
      const when = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // Newest first.
      expect(all.rows).toEqual([
        [c, 'department', 'billing', 'billing', 'true', '', when, other.id, other.liveVersionId],
        [b, 'complexity', '1', '1', 'true', '', when, pack.id, pack.liveVersionId],
        [a, 'abusive', 'true', 'true', 'true', 'a, "b"\nc', when, pack.id, pack.liveVersionId],
        [a, 'department', 'technical', 'billing', 'false', "'=cmd", when, pack.id, pack.liveVersionId],
      ]);
      const ofPack = table(await keyed.get(`/api/labels/export?packId=${pack.id}`)).rows;
      expect(ofPack.map((row) => row[0])).toEqual([b, a, a]);
      const ofVersion = table(
        await keyed.get(`/api/labels/export?packVersionId=${other.liveVersionId}`),
      ).rows;
      expect(ofVersion.map((row) => row[0])).toEqual([c]);
      const mismatched = `/api/labels/export?packId=${pack.id}&packVersionId=${other.liveVersionId}`;
      expect(table(await keyed.get(mismatched)).rows).toEqual([]);
      expect(table(await keyed.get(`/api/labels/export?packId=${randomUUID()}`)).rows).toEqual([]);
      expect(table(await keyed.get('/api/labels/export?packId=not-a-uuid')).rows).toEqual([]);

      // Another user's labels never show, with or without their pack's id.
      expect(table(await stranger.keyed.get('/api/labels/export')).rows).toEqual([]);
      expect(table(await stranger.keyed.get(`/api/labels/export?packId=${pack.id}`)).rows).toEqual([]);

      expectJsonError(await keyed.get('/api/labels/export?questionId=department'), 400, /./);
      expectJsonError(await keyed.get('/api/labels/export?packId=a&packId=b'), 400, /./);
    });
  });
});
