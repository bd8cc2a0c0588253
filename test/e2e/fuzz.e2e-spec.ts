import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import pg from 'pg';
import { insertAlert } from '../support/alerts.js';
import { startApi } from '../support/api.js';
import { Client, PASSWORD, signUp, uniqueEmail } from '../support/client.js';
import { preview, type Case, type Credential, type Family } from '../support/fuzz/cases.js';
import type { FuzzContext } from '../support/fuzz/context.js';
import { fuzzFamilies } from '../support/fuzz/families.js';
import { MALFORMED_HTTP } from '../support/fuzz/malformed-http.js';
import { BUILT_IN_QUERY_KEYS } from '../support/fuzz/query.js';
import { baseRequest, caseFrom } from '../support/fuzz/requests.js';
import { SECRET_QUERY_ROUTES, secretQuery } from '../support/fuzz/secret-query.js';
import type { World } from '../support/fuzz/world.js';
import {
  listOperations,
  schemaChecker,
  type OpenApiDocument,
  type Operation,
} from '../support/openapi-arbitraries.js';
import { freePort, type RunningProcess } from '../support/process.js';
import { Receiver } from '../support/receiver.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

/**
 * Property-based fuzz of every operation in the served OpenAPI document: schema-valid requests,
 * then the same requests broken in one way at a time. Whatever comes in, the answer must keep the
 * contract: never a 5xx, JSON always, `{error, issues?}` and nothing else on a 4xx, no planted
 * ticket text in an error body, and no secret of any kind in the logs.
 *
 * Replay: FUZZ_SEED=<n> FUZZ_RUNS=<runs per family> (FUZZ_SHRINK=1 shrinks counterexamples, slowly;
 * FUZZ_REPORT=<file> appends every violation found as a line of JSON).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_611);
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const SHRINK = process.env.FUZZ_SHRINK === '1';
const CONCURRENCY = 6;
/** A namespace of its own under the run's, which the run's teardown clears. */
const PREFIX = `${process.env.REDIS_PREFIX}-fuzz`;

/** Planted in generated ticket text, emails and passwords; none may reach an error body or a log. */
const TAG = randomBytes(6).toString('hex');
const MARKER = `MARKER-${TAG}`;
const EMAIL_MARK = `fzmail${TAG}`;
const PASSWORD_MARK = `PWMARK${TAG}`;
const PLANTED = [MARKER, EMAIL_MARK, PASSWORD_MARK];

const EXAMPLE_PACK = JSON.parse(readFileSync('examples/packs/support-triage.json', 'utf8'));
const VALID_LABELS = [
  { questionId: 'department', answer: { type: 'choice', choice: 'billing' } },
  { questionId: 'priority', answer: { type: 'choice', choice: 'low' }, note: `checked ${MARKER}` },
  { questionId: 'abusive_language', answer: { type: 'boolean', probability: 0 } },
  { questionId: 'refund_request', answer: { type: 'boolean', probability: 1 } },
  { questionId: 'resolution_complexity', answer: { type: 'score', score: 3 } },
];

// The operations become tests, so the document is read from the running API before they are declared.
const api = await startApi(
  { REDIS_PREFIX: PREFIX, API_RATE_LIMIT_PER_DAY: '1000000' },
  { captureLogs: true },
);
const doc = (await (await fetch(`${api.url}/docs/openapi.json`)).json()) as OpenApiDocument;
// /docs* serves the document itself and Swagger UI's HTML, which are not product routes.
const OPERATIONS = listOperations(doc).filter((op) => !op.path.startsWith('/docs'));

// ---------------------------------------------------------------------------------------------
// The owner's world: one of each record, plus spares that destructive routes may consume. The
// generators (test/support/fuzz/) read it, and the document, through `fuzz`, set once it exists.

let world: World;
let fuzz: FuzzContext;
let families: Family[];
let receiver: Receiver;
let worker: RunningProcess;
let workerHealthPort: number;

async function setUpWorld(): Promise<World> {
  const email = uniqueEmail('fuzz-owner');
  const { client: session, user } = await signUp(api.url, email);
  const keyRes = await session.post('/app/keys', { name: 'fuzz' });
  const keyed = session.withKey(keyRes.body.secret);
  const ok = async (res: Promise<{ status: number; body: any; text: string }>, what: string) => {
    const r = await res;
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
    return r.body;
  };
  const importPack = () => ok(keyed.post('/api/packs/import', EXAMPLE_PACK), 'import');
  const pack = await importPack();
  await ok(keyed.post(`/api/packs/${pack.id}/publish`), 'publish');
  await ok(keyed.patch(`/api/packs/${pack.id}`, { name: 'Support triage v2' }), 'edit');
  const versions = await ok(keyed.get(`/api/packs/${pack.id}/versions`), 'versions');
  const sparePacks = [await importPack(), await importPack(), await importPack()];
  // Every live evaluation drawn and selected, so the audit queue and its labels have an item.
  await ok(keyed.put(`/api/packs/${pack.id}/audit`, { rate: 1, strategy: 'uniform' }), 'audit');
  const ticket = { subject: `Charged twice ${MARKER}`, customerMessage: `Refund please ${MARKER}` };
  const judged = await ok(keyed.post('/api/judge', { packId: pack.id, ticket }), 'judge');
  const labels = [];
  for (const label of VALID_LABELS)
    labels.push(await ok(keyed.post(`/api/evaluations/${judged.evaluationId}/labels`, label), 'label'));
  const dataset = await ok(keyed.post('/api/datasets', { name: 'fuzz' }), 'dataset');
  for (let n = 0; n < 2; n++) {
    const tickets = Array.from({ length: 60 }, (_, i) => ({ ...ticket, externalId: `F-${n}-${i}` }));
    await ok(keyed.post(`/api/datasets/${dataset.id}/tickets`, { tickets }), 'upload');
  }
  const page = await ok(keyed.get(`/api/datasets/${dataset.id}/tickets`), 'tickets');
  const spareDatasets = [];
  for (let i = 0; i < 2; i++)
    spareDatasets.push(await ok(keyed.post('/api/datasets', { name: 'spare' }), 'dataset'));
  // Tickets that DELETE /api/datasets/{datasetId}/tickets/{ticketId} may consume, in a spare dataset.
  const spareTickets = Array.from({ length: 4 }, (_, i) => ({ ...ticket, externalId: `S-${i}` }));
  await ok(keyed.post(`/api/datasets/${spareDatasets[0].id}/tickets`, { tickets: spareTickets }), 'upload');
  const sparePage = await ok(keyed.get(`/api/datasets/${spareDatasets[0].id}/tickets`), 'tickets');
  // Uploads fill datasets (250 tickets each); empty ones keep accepting, so tickets reach storage.
  const emptyDatasets = [];
  for (let i = 0; i < 6; i++)
    emptyDatasets.push(await ok(keyed.post('/api/datasets', { name: 'empty' }), 'dataset'));
  const simulations = [
    await ok(keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id }), 'simulation'),
    await ok(keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id }), 'simulation'),
  ];
  // Samples nothing (rate 0): the fuzz's own judgments stay the only model calls.
  const shadowRun = await ok(
    keyed.post(`/api/packs/${pack.id}/shadow-runs`, { sampleRate: 0 }),
    'shadow run',
  );
  const spareKeys = [];
  for (let i = 0; i < 3; i++) spareKeys.push(await ok(session.post('/app/keys', { name: 'spare' }), 'key'));
  const endpoint = await ok(keyed.post('/api/webhook-endpoints', { url: receiver.url }), 'endpoint');
  await ok(keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket }), 'inbound');
  const delivery = await eventually(async () => (await keyed.get('/api/webhook-deliveries')).body.items?.[0]);
  const alert = await insertAlert(pack.id);
  const ids = (own: string[], spare: string[] = []) => ({ own, spare });
  return {
    email,
    key: keyRes.body.secret,
    cookie: session.cookie!,
    userId: user.id,
    ids: {
      pack: ids(
        [pack.id],
        sparePacks.map((p) => p.id),
      ),
      version: ids(versions.map((v: { id: string }) => v.id)),
      evaluation: ids([judged.evaluationId]),
      label: ids(
        [labels[0].id],
        labels.slice(1).map((l) => l.id),
      ),
      dataset: ids(
        [dataset.id, ...emptyDatasets.map((d) => d.id)],
        spareDatasets.map((d) => d.id),
      ),
      simulation: ids(simulations.map((s) => s.id)),
      shadowRun: ids([shadowRun.id]),
      ticket: ids(
        page.items.map((t: { id: string }) => t.id),
        sparePage.items.map((t: { id: string }) => t.id),
      ),
      // The fuzzing key itself is never offered: revoking it would end the run.
      key: ids(
        spareKeys.map((k) => k.id),
        spareKeys.map((k) => k.id),
      ),
      endpoint: ids([endpoint.id]),
      delivery: ids([delivery.id]),
      alert: ids([alert]),
    },
    cursor: page.nextCursor,
    secrets: new Set([keyRes.body.secret, ...spareKeys.map((k) => k.secret), endpoint.secret]),
    emails: new Set([email]),
  };
}

// ---------------------------------------------------------------------------------------------
// Requests: one generated case (test/support/fuzz/), sent raw (exact bytes, exact path) with each credential.

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Set when no response came back at all. */
  failure?: string;
}

/** A few requests at a time: the machine has two cores and also runs the worker. */
class Limit {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

const limit = new Limit(CONCURRENCY);

function send(op: Operation, c: Case, credential: Credential): Promise<Reply> {
  return limit.run(async () => {
    const headers = { ...c.headers, ...(await credentialHeaders(op, credential)) };
    // Node would send a GET's or DELETE's body unframed (no length), which is no request at all.
    if (c.body) headers['content-length'] = String(c.body.length);
    const base = new URL(api.url);
    return new Promise<Reply>((resolve) => {
      const fail = (e: Error) => resolve({ status: 0, headers: {}, text: '', failure: e.message });
      const req = http.request(
        // A connection per request: a server that closes one (431, 413) must not fail the next request.
        { host: base.hostname, port: base.port, method: c.method, path: c.url, headers, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString(),
            }),
          );
          res.on('error', fail);
        },
      );
      req.on('error', fail);
      req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
      req.end(c.body);
    });
  });
}

async function credentialHeaders(op: Operation, credential: Credential): Promise<Record<string, string>> {
  if (credential === 'key') return { 'x-api-key': world.key };
  if (credential === 'bearer') return { authorization: `Bearer ${world.key}` };
  if (credential === 'none') return {};
  // Signing out ends the session it is sent with, so that route gets a throwaway one.
  return { cookie: op.path === '/api/auth/sign-out' ? await throwawaySession() : world.cookie };
}

async function throwawaySession(): Promise<string> {
  const email = uniqueEmail('fuzz-throwaway');
  const { client } = await signUp(api.url, email);
  world.emails.add(email);
  world.secrets.add(client.cookie!.split('=')[1]);
  return client.cookie!;
}

/** Key only, key and session (routes that take one), and none: every case is tried as each. */
function credentialsFor(op: Operation, c: Case): Credential[] {
  if (c.ownCredential) return ['none'];
  const list: Credential[] = [c.bearer ? 'bearer' : 'key'];
  if (op.security.includes('session') || op.security.length === 0 || c.anonymous) list.push('session');
  if (c.anonymous) list.push('none');
  return list;
}

/** Records what a successful answer hands out: secrets to look for in logs, the endpoint's new id. */
function remember(op: Operation, reply: Reply): void {
  if (op.method === 'POST' && op.path === '/api/webhook-endpoints' && reply.status === 201)
    world.ids.endpoint.own = [JSON.parse(reply.text).id];
  rememberSecrets(reply);
}

/** Secrets a response hands out (new keys, rotated keys, completion secrets, session cookies). */
function rememberSecrets(reply: Reply): void {
  const cookie = [reply.headers['set-cookie'] ?? []].flat().find((v) => v.startsWith('tj_session='));
  const value = cookie?.split(';')[0].split('=')[1];
  // A sign-out clears the cookie with an empty value, which is no secret.
  if (value) world.secrets.add(value);
  if (reply.status >= 300 || !reply.text.includes('"secret"')) return;
  const body = JSON.parse(reply.text);
  if (typeof body?.secret === 'string') world.secrets.add(body.secret);
}

// ---------------------------------------------------------------------------------------------
// The contract every answer keeps, whatever was sent.

/**
 * What is wrong with an answer: `forbidden` when the request broke the documented schema (it must
 * not be accepted), `may503` for /readyz, whose 503 `{error, checks}` is documented, `oauth` for
 * the OAuth endpoints, whose errors have the OAuth body `{error, error_description?}` (RFC 6749),
 * `jsonRpc` for /mcp, whose 400s for a body it cannot read are JSON-RPC errors (-32700, -32600).
 */
function contractViolations(
  reply: Reply,
  { forbidden = false, may503 = false, oauth = false, jsonRpc = false, successTypes = [] as string[] } = {},
): string[] {
  if (reply.failure) return [`no response (${reply.failure})`];
  const problems: string[] = [];
  if (forbidden && reply.status >= 200 && reply.status < 300)
    problems.push(`${reply.status} for a body the document forbids`);
  const documented503 = may503 && reply.status === 503;
  if (reply.status >= 500 && !documented503) problems.push(`status ${reply.status}`);
  const type = String(reply.headers['content-type'] ?? '');
  // A 2xx may be one of the operation's documented downloads (the dataset template's text/csv).
  const documentedDownload =
    reply.status >= 200 && reply.status < 300 && successTypes.includes(type.split(';')[0].trim());
  if (reply.status !== 204 && !documentedDownload && !/^application\/json\s*(;|$)/.test(type))
    problems.push(`content-type "${type || 'none'}"`);
  if (reply.status >= 400 && !documented503) {
    const jsonRpcRefusal = jsonRpc && reply.status === 400 && isJsonRpcRefusal(reply.text);
    if (!jsonRpcRefusal && !isErrorBody(reply.text, oauth ? 'error_description' : 'issues'))
      problems.push(`error body is not exactly {error, ${oauth ? 'error_description' : 'issues'}?}`);
    if (PLANTED.some((marker) => reply.text.includes(marker))) problems.push('planted text echoed');
  }
  return problems;
}

/** A JSON-RPC 2.0 error answer for a request whose id could not be read: a parse error or an invalid request. */
function isJsonRpcRefusal(text: string): boolean {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  const { jsonrpc, id, error, ...rest } = body ?? {};
  return (
    jsonrpc === '2.0' &&
    id === null &&
    [-32700, -32600].includes(error?.code) &&
    typeof error?.message === 'string' &&
    Object.keys(rest).length === 0
  );
}

function isErrorBody(text: string, detail: 'issues' | 'error_description'): boolean {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const { error, [detail]: more, ...rest } = body as Record<string, unknown>;
  const moreOk = more === undefined || (detail === 'issues' ? Array.isArray(more) : typeof more === 'string');
  return typeof error === 'string' && error.length > 0 && moreOk && Object.keys(rest).length === 0;
}

interface Finding {
  op: string;
  family: string;
  status: number;
  problems: string[];
  request: string;
  credential: Credential;
  body: string;
}

const findings: Finding[] = [];

/** Sends the case with each credential; throws (failing the property) on the first broken answer. */
async function check(op: Operation, c: Case): Promise<void> {
  const credentials = credentialsFor(op, c);
  const replies = await Promise.all(credentials.map((credential) => send(op, c, credential)));
  replies.forEach((reply, i) => {
    remember(op, reply);
    const problems = contractViolations(reply, {
      forbidden: c.forbidden,
      may503: op.path === '/readyz',
      oauth: op.path.startsWith('/oauth/'),
      jsonRpc: op.path === '/mcp',
      successTypes: op.successTypes,
    });
    if (!problems.length) return;
    const finding: Finding = {
      op: `${op.method} ${op.path}`,
      family: c.family,
      status: reply.status,
      problems,
      request: String((c as any)[fc.toStringMethod]()),
      credential: credentials[i],
      body: preview(reply.failure ?? reply.text, 300),
    };
    findings.push(finding);
    if (process.env.FUZZ_REPORT) appendFileSync(process.env.FUZZ_REPORT, JSON.stringify(finding) + '\n');
    throw new Error(
      `${problems.join('; ')}: ${c.method} ${preview(c.url, 160)} as ${credentials[i]} -> ${reply.status} ${finding.body}`,
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Running: one fast-check property per operation and family, seeded from FUZZ_SEED.

function seedFor(op: Operation, family: string): number {
  const digest = createHash('sha256').update(`${SEED}:${op.method} ${op.path}:${family}`).digest();
  return digest.readInt32BE(0);
}

interface FamilyFailure {
  family: string;
  message: string;
}

async function runFamily(op: Operation, family: Family): Promise<FamilyFailure | null> {
  const seed = seedFor(op, family.name);
  const before = findings.length;
  try {
    await fc.assert(
      fc.asyncProperty(family.cases(op), (c) => check(op, c)),
      { seed, numRuns: RUNS * (family.weight ?? 1), endOnFailure: !SHRINK },
    );
    return null;
  } catch (error) {
    const finding = findings.slice(before).find((f) => f.family === family.name);
    const key = finding ? `${finding.status} ${finding.problems.join('; ')}` : 'error';
    const lines = String((error as Error).message)
      .split('\n')
      .filter((line) => /seed|Counterexample/.test(line))
      .map((line) => `    ${preview(line.trim(), 400)}`);
    const cause = (error as Error).cause;
    if (cause instanceof Error) lines.push(`    Got: ${preview(cause.message, 400)}`);
    return { family: family.name, message: `${key}\n${lines.join('\n')}` };
  }
}

/** One entry per distinct status and problem; later families with the same one become a line each. */
function compactReport(op: Operation, failures: FamilyFailure[]): string {
  const groups = new Map<string, FamilyFailure[]>();
  for (const failure of failures) {
    const key = failure.message.split('\n')[0];
    groups.set(key, [...(groups.get(key) ?? []), failure]);
  }
  const parts = [...groups.entries()].map(([key, group]) => {
    const [first, ...rest] = group;
    const also = rest.map(
      (f) =>
        `    also [${f.family}] ${preview(f.message.split('\n').find((l) => l.includes('Counterexample')) ?? '', 300).trim()}`,
    );
    return [
      `- ${op.method} ${op.path} -> ${key} [${first.family}]`,
      ...first.message.split('\n').slice(1),
      ...also,
    ].join('\n');
  });
  return `${op.method} ${op.path}: ${groups.size} distinct contract violation(s) (FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS})\n${parts.join('\n')}`;
}

/** Writes raw bytes (MALFORMED_HTTP) and reads whatever comes back until the server closes or goes quiet. */
function rawExchange(request: string): Promise<Reply | null> {
  const base = new URL(api.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(base.port), base.hostname);
    const chunks: Buffer[] = [];
    const finish = () => {
      socket.destroy();
      resolve(parseRawResponse(Buffer.concat(chunks).toString('latin1')));
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', finish);
    socket.on('error', finish);
    socket.setTimeout(1_500, finish);
    socket.write(Buffer.from(request, 'latin1'));
  });
}

function parseRawResponse(raw: string): Reply | null {
  const split = raw.indexOf('\r\n\r\n');
  if (!raw.startsWith('HTTP/') || split < 0) return null;
  const [statusLine, ...lines] = raw.slice(0, split).split('\r\n');
  const headers: http.IncomingHttpHeaders = {};
  for (const line of lines)
    headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
  const length = Number(headers['content-length'] ?? raw.length);
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    text: raw.slice(split + 4, split + 4 + length),
  };
}

describe('OpenAPI-driven fuzz: every answer keeps the error contract', () => {
  beforeAll(async () => {
    receiver = await new Receiver().start();
    workerHealthPort = await freePort();
    worker = await startWorker({
      REDIS_PREFIX: PREFIX,
      WORKER_HEALTH_PORT: String(workerHealthPort),
      WEBHOOK_MAX_ATTEMPTS: '2',
      WEBHOOK_BACKOFF_MS: '200',
      WORKER_CONCURRENCY: '4',
    });
    world = await setUpWorld();
    fuzz = {
      doc,
      documented: schemaChecker(doc),
      world,
      marks: { marker: MARKER, email: EMAIL_MARK, password: PASSWORD_MARK },
      receiverUrl: receiver.url,
      examplePack: EXAMPLE_PACK,
      validLabels: VALID_LABELS,
    };
    families = fuzzFamilies(fuzz);
  }, 60_000);

  afterAll(async () => {
    if (worker) await stopWorker(worker);
    await api.close();
    await receiver?.close();
  });

  it('reads every operation from the served document', () => {
    expect(OPERATIONS.length).toBeGreaterThan(20);
    expect(OPERATIONS.map((op) => `${op.method} ${op.path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/judge',
        'POST /api/datasets/{datasetId}/tickets',
        'POST /api/webhook-endpoints/{id}/test',
        'GET /healthz',
      ]),
    );
  });

  for (const op of OPERATIONS) {
    it(`${op.method} ${op.path}`, async () => {
      const failures = await Promise.all(families.filter((f) => f.applies(op)).map((f) => runFamily(op, f)));
      const failed = failures.filter((f): f is FamilyFailure => f !== null);
      if (failed.length) throw new Error(compactReport(op, failed));
    }, 90_000);
  }

  it('refuses query keys named like built-in properties on every GET route with a query', async () => {
    const routes = OPERATIONS.filter((op) => op.method === 'GET' && op.queryParams.length > 0);
    expect(routes.length).toBeGreaterThan(3);
    const wrong: string[] = [];
    for (const op of routes) {
      const [base] = fc.sample(baseRequest(fuzz, op), { seed: seedFor(op, 'built-in keys'), numRuns: 1 });
      for (const key of BUILT_IN_QUERY_KEYS) {
        const broken = { ...base, query: [...base.query, `${key}=1`] };
        const c = caseFrom(fuzz, op, 'built-in keys', key, broken, { anonymous: false, bearer: false });
        const reply = await send(op, c, 'key');
        const named = reply.status === 400 && JSON.parse(reply.text).issues?.some((i: any) => i.path === key);
        const problems = contractViolations(reply);
        if (!named || problems.length) wrong.push(`${c.url} -> ${reply.status} ${preview(reply.text, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('logs no secret sent in a query string, on any route', async () => {
    const planted: string[] = [];
    for (const [method, path] of SECRET_QUERY_ROUTES) {
      const { query, values } = secretQuery(path.replace(/\W/g, ''), TAG);
      planted.push(...values);
      const headers = path.startsWith('/api') ? { 'x-api-key': world.key } : undefined;
      const res = await fetch(`${api.url}${path}?${query}`, { method, headers });
      expect(res.status).toBeLessThan(500);
      await res.arrayBuffer();
    }
    for (const value of planted) world.secrets.add(value);
    const logs = api.logs.text();
    expect(planted.filter((value) => logs.includes(value))).toEqual([]);
    // The requests were logged, each secret's name kept with its value replaced.
    for (const [, path] of SECRET_QUERY_ROUTES)
      expect(logs).toContain(
        `"url":"${path}?access_token=[redacted]&ACCESS_TOKEN=[redacted]&%61ccess_token=[redacted]`,
      );
  });

  it('answers malformed HTTP, when it answers, with the error contract', async () => {
    const replies = await Promise.all(MALFORMED_HTTP.map(([, request]) => rawExchange(request)));
    const broken = replies.flatMap((reply, i) => {
      // A connection closed without an answer is acceptable for bytes that are not HTTP.
      const problems = reply ? contractViolations(reply) : [];
      const [name] = MALFORMED_HTTP[i];
      return problems.length
        ? [`${name} -> ${reply!.status} ${preview(reply!.text, 200)}: ${problems.join('; ')}`]
        : [];
    });
    expect(broken).toEqual([]);
  });

  it('still answers /healthz and /readyz with 200', async () => {
    const client = new Client(api.url);
    expect((await client.get('/healthz')).status).toBe(200);
    expect((await client.get('/readyz')).status).toBe(200);
  });

  it('keeps the worker alive through the junk the fuzz enqueued, and judges every accepted event', async () => {
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    let pending = -1;
    try {
      await eventually(async () => {
        const { rows } = await db.query(
          'SELECT count(*)::int AS n FROM inbound_events WHERE user_id = $1 AND evaluation_id IS NULL',
          [world.userId],
        );
        pending = rows[0].n;
        return pending === 0 || worker.child.exitCode !== null ? true : undefined;
      }, 20_000).catch(() => undefined);
    } finally {
      await db.end();
    }
    expect({ exitCode: worker.child.exitCode, signal: worker.child.signalCode }).toEqual({
      exitCode: null,
      signal: null,
    });
    const health = await fetch(`http://127.0.0.1:${workerHealthPort}/healthz`);
    expect(health.status).toBe(200);
    expect({ inboundEventsNeverJudged: pending }).toEqual({ inboundEventsNeverJudged: 0 });
  }, 30_000);

  it('logs no planted text, secret, session, password or email', () => {
    const leaks = (text: string) => {
      const found: string[] = [];
      for (const marker of PLANTED) if (text.includes(marker)) found.push(`planted ${marker}`);
      for (const secret of world.secrets)
        if (text.includes(secret)) found.push(`secret ${secret.slice(0, 8)}…`);
      if (text.includes('whsec_')) found.push('whsec_');
      if (text.includes(PASSWORD)) found.push('password');
      const lower = text.toLowerCase();
      for (const email of world.emails) if (lower.includes(email.toLowerCase())) found.push(`email ${email}`);
      return found;
    };
    expect({ api: leaks(api.logs.text()), worker: leaks(worker.output()) }).toEqual({ api: [], worker: [] });
  });
});
