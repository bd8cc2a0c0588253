import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { insertAlert } from '../support/alerts.js';
import { startApi, type TestApi } from '../support/api.js';
import {
  newTenant,
  PASSWORD,
  type Client,
  type RequestOptions,
  type TestResponse,
} from '../support/client.js';
import { authorizeAndExchange, registerClient } from '../support/oauth-flow.js';
import { listOperations, type OpenApiDocument, type Operation } from '../support/openapi-arbitraries.js';
import type { Kind as WorldKind } from '../support/fuzz/world.js';
import { TICKET } from '../support/packs.js';
import { createIsolatedDatabase } from '../support/isolated-database.js';
import type { RunningProcess } from '../support/process.js';
import { Receiver } from '../support/receiver.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

/**
 * Tenant isolation, driven by the served OpenAPI document: user B calls every operation whose path
 * names a record with user A's ids (and with mixes of A's and B's), with each of B's credentials,
 * and always gets 404 `{error: "… not found"}`; A's records read the same before and after.
 * A new route joins the matrix by itself; one whose ids the matrix cannot supply fails until it is
 * mapped in ID_KINDS or listed in EXCLUDED with the reason.
 */
/** A namespace of its own under the run's, which the run's teardown clears. */
const PREFIX = `${process.env.REDIS_PREFIX}-isolation`;
const EXAMPLE_PACK = JSON.parse(readFileSync('examples/packs/support-triage.json', 'utf8'));
const LABEL = { questionId: 'department', answer: { type: 'choice', choice: 'billing' } };

/** The fuzz world's records, and the OAuth clients only this matrix names. */
type Kind = WorldKind | 'oauthClient';

/** Which record a path or query parameter names: by its own name, or by the collection it follows. */
function kindOf(path: string, param: string): Kind | undefined {
  const byName: Record<string, Kind> = {
    packId: 'pack',
    datasetId: 'dataset',
    ticketId: 'ticket',
    labelId: 'label',
    otherId: 'simulation',
    versionId: 'version',
  };
  if (byName[param]) return byName[param];
  // Two versions on the comparison of a pack's versions; elsewhere (the quality window) days.
  if ((param === 'from' || param === 'to') && path.endsWith('/compare')) return 'version';
  if (param !== 'id') return undefined;
  const byCollection: [string, Kind][] = [
    ['/app/keys/', 'key'],
    ['/app/oauth-clients/', 'oauthClient'],
    ['/api/evaluations/', 'evaluation'],
    ['/api/simulations/', 'simulation'],
    ['/api/shadow-runs/', 'shadowRun'],
    ['/api/webhook-endpoints/', 'endpoint'],
    ['/api/webhook-deliveries/', 'delivery'],
    ['/api/alerts/', 'alert'],
  ];
  return byCollection.find(([prefix]) => path.startsWith(prefix))?.[1];
}

/**
 * Required query parameters that name no record, with a valid value, so that a 404 is about the
 * record and not a 400 about the parameter.
 */
const FIXED_QUERY: Record<string, string> = { questionId: 'department', threshold: '0.6' };

/** `METHOD path` of operations left out of the matrix, with the reason. None so far. */
const EXCLUDED: Record<string, string> = {};

/** Valid bodies for write routes, so that a 404 is about the record and not a 400 about the body. */
const VALID_BODIES: Record<string, unknown> = {
  'PATCH /api/packs/{packId}': { name: 'renamed by someone else' },
  'POST /api/evaluations/{id}/labels': LABEL,
  'POST /api/datasets/{datasetId}/tickets': { tickets: [TICKET] },
  'PUT /api/packs/{packId}/audit': { rate: 1, strategy: 'uniform' },
  'POST /api/packs/{packId}/shadow-runs': { sampleRate: 0.5 },
  'PUT /api/packs/{packId}/alert-rules': {
    agreementDrift: { enabled: false, margin: 0.5, minLabels: 1, confidence: 0.9 },
    answerShift: { enabled: false, psiThreshold: 1, minCount: 1 },
    reviewShareJump: { enabled: false, minJump: 0.5, minCount: 1, confidence: 0.9 },
    gatewayFailureRate: { enabled: false, threshold: 0.5, minCount: 1 },
  },
};

/** Each kind's record, one of A's and one of B's (versions: two each, for compare's from and to). */
type Ids = Record<Kind, string[]>;

interface Tenant {
  session: Client;
  keyed: Client;
  key: string;
  ids: Ids;
}

async function ok(res: Promise<TestResponse>, what: string): Promise<any> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r.body;
}

/** A tenant with one of everything that has an id (deliveries come later, from the worker). */
async function populate(apiUrl: string, receiverUrl: string): Promise<Tenant> {
  const { session, keyed, key, user } = await newTenant(apiUrl);
  // An MCP client connected through OAuth: its id is what /app/oauth-clients/{id} names.
  const oauthClient = (await registerClient(apiUrl)).body.client_id as string;
  await authorizeAndExchange(apiUrl, oauthClient, { email: user.email, password: PASSWORD });
  const pack = await ok(keyed.post('/api/packs/import', EXAMPLE_PACK), 'import');
  await ok(keyed.post(`/api/packs/${pack.id}/publish`), 'publish');
  await ok(keyed.patch(`/api/packs/${pack.id}`, { name: 'Support triage, edited' }), 'edit');
  const versions = await ok(keyed.get(`/api/packs/${pack.id}/versions`), 'versions');
  // Every live evaluation drawn and selected: each tenant has audit items too.
  await ok(keyed.put(`/api/packs/${pack.id}/audit`, { rate: 1, strategy: 'uniform' }), 'audit');
  const judged = await ok(keyed.post('/api/judge', { packId: pack.id, ticket: TICKET }), 'judge');
  const label = await ok(keyed.post(`/api/evaluations/${judged.evaluationId}/labels`, LABEL), 'label');
  const shadowRun = await ok(
    keyed.post(`/api/packs/${pack.id}/shadow-runs`, { sampleRate: 0 }),
    'shadow run',
  );
  const dataset = await ok(keyed.post('/api/datasets', { name: 'isolation' }), 'dataset');
  const tickets = [TICKET, { ...TICKET, externalId: 'ZD-1002' }];
  await ok(keyed.post(`/api/datasets/${dataset.id}/tickets`, { tickets }), 'upload');
  const page = await ok(keyed.get(`/api/datasets/${dataset.id}/tickets`), 'tickets');
  const target = await ok(session.post('/app/keys', { name: 'target' }), 'key');
  const endpoint = await ok(keyed.post('/api/webhook-endpoints', { url: receiverUrl }), 'endpoint');
  const alert = await insertAlert(pack.id);
  return {
    session,
    keyed,
    key: key.secret,
    ids: {
      pack: [pack.id],
      version: versions.map((v: { id: string }) => v.id),
      evaluation: [judged.evaluationId],
      label: [label.id],
      dataset: [dataset.id],
      ticket: page.items.map((item: { id: string }) => item.id),
      simulation: [],
      shadowRun: [shadowRun.id],
      key: [target.id],
      endpoint: [endpoint.id],
      delivery: [],
      oauthClient: [oauthClient],
      alert: [alert],
    },
  };
}

/** A delivery, made the real way: an inbound event, judged and completed by a worker. */
async function addDelivery(tenant: Tenant): Promise<void> {
  await ok(
    tenant.keyed.post('/api/webhooks/inbound', { packId: tenant.ids.pack[0], ticket: TICKET }),
    'inbound',
  );
  const delivery = await eventually(async () => {
    const item = (await tenant.keyed.get('/api/webhook-deliveries')).body.items?.[0];
    return item?.status === 'succeeded' ? item : undefined;
  });
  tenant.ids.delivery.push(delivery.id);
}

/** Two simulations, started with no worker running, so they stay queued and cancellable. */
async function addSimulations(tenant: Tenant): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const body = { datasetId: tenant.ids.dataset[0], packId: tenant.ids.pack[0] };
    tenant.ids.simulation.push((await ok(tenant.keyed.post('/api/simulations', body), 'simulation')).id);
  }
}

/** Everything A can read about its records, read with A's session (so no key's lastUsedAt moves). */
async function snapshot(a: Tenant): Promise<Record<string, unknown>> {
  const [pack] = a.ids.pack;
  const paths = [
    '/api/packs',
    '/app/oauth-clients',
    `/api/packs/${pack}`,
    `/api/packs/${pack}/versions`,
    `/api/packs/${pack}/export`,
    `/api/packs/${pack}/audit`,
    `/api/packs/${pack}/alert-rules`,
    `/api/alerts`,
    `/api/evaluations/${a.ids.evaluation[0]}`,
    '/api/datasets',
    `/api/datasets/${a.ids.dataset[0]}`,
    `/api/datasets/${a.ids.dataset[0]}/tickets`,
    '/api/simulations',
    ...a.ids.simulation.map((id) => `/api/simulations/${id}`),
    `/api/packs/${pack}/shadow-runs`,
    ...a.ids.shadowRun.map((id) => `/api/shadow-runs/${id}`),
    '/app/keys',
    '/api/webhook-endpoints',
    '/api/webhook-deliveries',
  ];
  const views: Record<string, unknown> = {};
  for (const path of paths) {
    const res = await a.session.get(path);
    views[path] = { status: res.status, body: res.body };
  }
  return views;
}

interface Slot {
  name: string;
  in: 'path' | 'query';
  kind: Kind;
  /** Which version of the tenant's pack, for `from` and `to`. */
  index: number;
  optional: boolean;
}

/** Whose id fills a slot; `-` leaves an optional query parameter out. */
type Owner = 'A' | 'B' | '-';

/** The id-bearing parameters of an operation, or the names the matrix cannot supply. */
function slotsOf(op: Operation): { slots: Slot[]; unmapped: string[] } {
  const slots: Slot[] = [];
  const unmapped: string[] = [];
  for (const name of op.pathParams) {
    const kind = kindOf(op.path, name);
    if (kind) slots.push({ name, in: 'path', kind, index: 0, optional: false });
    else unmapped.push(name);
  }
  for (const param of op.queryParams) {
    const kind = kindOf(op.path, param.name);
    const index = param.name === 'to' ? 1 : 0;
    if (kind) slots.push({ name: param.name, in: 'query', kind, index, optional: !param.required });
    else if (param.required && !(param.name in FIXED_QUERY)) unmapped.push(param.name);
  }
  return { slots, unmapped };
}

/**
 * Whose id goes in each slot: all A's (also without the optional query ids), then (with two or
 * more slots) each slot A's with the rest B's, and each slot B's with the rest A's, so a route
 * cannot check one id and trust the other.
 */
function owners(slots: Slot[]): Owner[][] {
  const combos: Owner[][] = [slots.map(() => 'A')];
  if (slots.some((slot) => slot.optional)) combos.push(slots.map((slot) => (slot.optional ? '-' : 'A')));
  if (slots.length > 1) {
    slots.forEach((_, i) => {
      combos.push(slots.map((__, j) => (i === j ? 'A' : 'B')));
      combos.push(slots.map((__, j) => (i === j ? 'B' : 'A')));
    });
  }
  return combos;
}

function urlFor(op: Operation, slots: Slot[], who: Owner[], a: Tenant, b: Tenant): string {
  const idIn = (i: number) => (who[i] === 'A' ? a : b).ids[slots[i].kind][slots[i].index];
  let path = op.path;
  const query: string[] = [];
  slots.forEach((slot, i) => {
    if (who[i] === '-') return;
    if (slot.in === 'path') path = path.replace(`{${slot.name}}`, encodeURIComponent(idIn(i)));
    else query.push(`${slot.name}=${encodeURIComponent(idIn(i))}`);
  });
  for (const param of op.queryParams)
    if (param.required && param.name in FIXED_QUERY)
      query.push(`${param.name}=${encodeURIComponent(FIXED_QUERY[param.name])}`);
  return query.length ? `${path}?${query.join('&')}` : path;
}

const PREFERRED_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Reads first and deletions last: a leak that deletes must not hide a leak that reads. */
const byRisk = (x: Operation, y: Operation) =>
  PREFERRED_ORDER.indexOf(x.method) - PREFERRED_ORDER.indexOf(y.method) ||
  Number(/\/(rotate|cancel|stop)$/.test(x.path)) - Number(/\/(rotate|cancel|stop)$/.test(y.path));

// A database of its own, for this file and the processes it starts: A's two queued simulations must
// stay queued, and the worker of a spec running beside this one (a short WORKER_SWEEP_MS) sweeps every
// queued simulation of its database and starts it.
const database = await createIsolatedDatabase('isolation');
const sharedDatabaseUrl = process.env.DATABASE_URL;
process.env.DATABASE_URL = database.url;
async function dropDatabase(): Promise<void> {
  if (sharedDatabaseUrl !== undefined) process.env.DATABASE_URL = sharedDatabaseUrl;
  await database.drop();
}
// The matrix's rows are tests, so the document is read from the running API before they are declared.
let api: TestApi;
let doc: OpenApiDocument;
try {
  api = await startApi({ REDIS_PREFIX: PREFIX, API_RATE_LIMIT_PER_DAY: '1000000' });
  doc = (await (await fetch(`${api.url}/docs/openapi.json`)).json()) as OpenApiDocument;
} catch (error) {
  // No hook is registered yet, so nothing else would drop the database.
  await dropDatabase();
  throw error;
}
const MATRIX = listOperations(doc)
  .filter((op) => op.pathParams.length > 0)
  .sort(byRisk);

describe('tenant isolation: another user’s ids always give 404', () => {
  let receiver: Receiver;
  let a: Tenant;
  let b: Tenant;
  let before: Record<string, unknown>;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    const worker: RunningProcess = await startWorker({ REDIS_PREFIX: PREFIX });
    try {
      [a, b] = [await populate(api.url, receiver.url), await populate(api.url, receiver.url)];
      await addDelivery(a);
      await addDelivery(b);
    } finally {
      await stopWorker(worker);
    }
    await addSimulations(a);
    await addSimulations(b);
    before = await snapshot(a);
  }, 60_000);

  afterAll(async () => {
    await api.close();
    await receiver?.close();
    await dropDatabase();
  });

  it('reads a matrix of routes from the served document', () => {
    expect(MATRIX.map((op) => `${op.method} ${op.path}`)).toEqual(
      expect.arrayContaining([
        'GET /api/packs/{packId}',
        'DELETE /app/keys/{id}',
        'POST /api/webhook-endpoints/{id}/test',
      ]),
    );
  });

  for (const op of MATRIX) {
    const route = `${op.method} ${op.path}`;
    if (EXCLUDED[route]) {
      it.skip(`${route} (excluded: ${EXCLUDED[route]})`, () => undefined);
      continue;
    }
    it(route, async () => {
      const { slots, unmapped } = slotsOf(op);
      if (unmapped.length)
        throw new Error(
          `${route}: no id mapping for ${unmapped.join(', ')}; add it to kindOf or to EXCLUDED`,
        );
      if (op.bodySchema && !(route in VALID_BODIES))
        throw new Error(`${route} takes a body: add a valid one to VALID_BODIES, so a 404 is not just a 400`);
      const body = VALID_BODIES[route];
      // Session-only routes take the session only; key-only routes refuse it.
      const credentials: [string, Client, RequestOptions][] = [];
      if (op.security.includes('api-key')) credentials.push(['x-api-key', b.keyed, {}]);
      if (op.security.includes('bearer'))
        credentials.push([
          'bearer',
          b.keyed,
          { apiKey: null, headers: { authorization: `Bearer ${b.key}` } },
        ]);
      if (op.security.includes('session')) credentials.push(['session', b.session, {}]);
      expect(credentials.length).toBeGreaterThan(0);

      const leaks: string[] = [];
      for (const who of owners(slots)) {
        const url = urlFor(op, slots, who, a, b);
        for (const [name, client, options] of credentials) {
          const res = await client.request(
            op.method,
            url,
            body === undefined ? options : { ...options, body },
          );
          const fine =
            res.status === 404 &&
            /^application\/json/.test(res.headers.get('content-type') ?? '') &&
            isNotFoundBody(res.body);
          if (!fine)
            leaks.push(
              `B(${name}) ${op.method} ${url} [ids: ${who.join('')}] -> ${res.status} ${res.text.slice(0, 200)}`,
            );
        }
      }
      expect(leaks).toEqual([]);
    });
  }

  // The exports filtered by id (no id in their path, so not in the matrix): A's ids filter B's
  // own records, so B gets a header row alone, never A's rows nor a 404 that would confirm them.
  it.each([
    ['/api/evaluations/export', 'packId', 'pack'],
    ['/api/evaluations/export', 'simulationId', 'simulation'],
    ['/api/labels/export', 'packId', 'pack'],
    ['/api/labels/export', 'packVersionId', 'version'],
  ] as const)('%s?%s= with A’s id gives B a header row alone', async (path, param, kind) => {
    for (const client of [b.keyed, b.session]) {
      const res = await client.get(`${path}?${param}=${a.ids[kind][0]}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.text.replace(/^\uFEFF/, '').split('\r\n')).toEqual([expect.stringMatching(/^\w+,/), '']);
    }
    // The same filter finds A's record for A.
    if (kind === 'pack')
      expect(
        (await a.keyed.get(`${path}?${param}=${a.ids.pack[0]}`)).text.split('\r\n').length,
      ).toBeGreaterThan(2);
  });

  // The list takes A's ids as filters (not as a path): they match nothing of B's, and nothing of A's shows.
  it("GET /api/evaluations never lists or counts A's evaluations, whatever B filters or searches on", async () => {
    const everySource = 'source=api,webhook,mcp,playground,simulation';
    const mine = await ok(a.session.get(`/api/evaluations?${everySource}`), 'A lists');
    const ofA = new Set<string>(mine.items.map((item: { id: string }) => item.id));
    expect(ofA.size).toBeGreaterThan(0);
    const byAIds = [
      `packId=${a.ids.pack[0]}`,
      `packVersionId=${a.ids.version[1]}`,
      `packVersionId=${a.ids.version[0]}`,
      `simulationId=${a.ids.simulation[0]}`,
      `packId=${a.ids.pack[0]}&packVersionId=${a.ids.version[1]}&q=ZD&order=oldest`,
    ];
    const broad = [
      everySource,
      'q=ZD-1001',
      'q=ZD',
      `q=${encodeURIComponent(TICKET.subject)}`,
      'from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z&order=oldest',
      `${everySource}&status=accept&q=charged`,
    ];
    const leaks: string[] = [];
    for (const client of [b.keyed, b.session]) {
      for (const query of [...byAIds, ...broad]) {
        const res = await client.get(`/api/evaluations?${query}`);
        const items: Array<{ id: string }> = res.body.items ?? [];
        const own = byAIds.includes(query) ? items.length === 0 && res.body.total === 0 : true;
        if (res.status !== 200 || !own || items.some((item) => ofA.has(item.id)))
          leaks.push(`B GET /api/evaluations?${query} -> ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  // The queues take A's ids as filters too: B's review and audit queues, in either order, never
  // list or count A's evaluations.
  it("GET /api/reviews never lists or counts A's items, in either queue and order", async () => {
    const queues = ['', 'queue=review', 'queue=audit', 'order=value', 'queue=audit&order=value'];
    const leaks: string[] = [];
    for (const client of [b.keyed, b.session]) {
      for (const queue of queues) {
        for (const filter of [
          '',
          `packId=${a.ids.pack[0]}`,
          `packId=${a.ids.pack[0]}&questionId=department`,
        ]) {
          const query = [queue, filter].filter(Boolean).join('&');
          const res = await client.get(`/api/reviews?${query}`);
          const items: Array<{ id: string; packId: string }> = res.body.items ?? [];
          const ofA = items.filter(
            (item) => item.packId === a.ids.pack[0] || item.id === a.ids.evaluation[0],
          );
          const counted = filter ? res.body.total !== 0 : false;
          if (res.status !== 200 || ofA.length || counted)
            leaks.push(`B GET /api/reviews?${query} -> ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    // A's own audit queue holds A's judged evaluation when it was decided automatically.
    const own = await ok(a.session.get(`/api/reviews?queue=audit&packId=${a.ids.pack[0]}`), 'A lists');
    const evaluation = await ok(a.session.get(`/api/evaluations/${a.ids.evaluation[0]}`), 'A reads');
    expect(evaluation).toMatchObject({ auditProbability: 1, auditSelected: true });
    expect(own.items.map((item: { id: string }) => item.id).includes(a.ids.evaluation[0])).toBe(
      evaluation.status !== 'review',
    );
  });

  it("leaves A's records exactly as they were", async () => {
    expect(await snapshot(a)).toEqual(before);
  });
});

/** `{error: "<something> not found"}` and nothing else. */
function isNotFoundBody(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const keys = Object.keys(body);
  const { error } = body as { error?: unknown };
  return keys.length === 1 && typeof error === 'string' && /^\S.* not found$/.test(error);
}
