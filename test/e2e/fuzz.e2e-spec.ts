import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import pg from 'pg';
import { startApi } from '../support/api.js';
import { Client, PASSWORD, signUp, uniqueEmail } from '../support/client.js';
import {
  anyIndex,
  deeplyNested,
  fieldSites,
  FORBIDDEN_KEYS,
  getAt,
  listOperations,
  nested,
  objectSites,
  ODD_TEXT,
  oneOf,
  oversized,
  RawJson,
  reshaped,
  schemaArbitrary,
  schemaChecker,
  setAt,
  structuralSites,
  toJsonText,
  UNKNOWN_KEYS,
  withKey,
  withOddText,
  WRONG_TYPES,
  type ArbitraryOptions,
  type FieldSite,
  type JsonPath,
  type OpenApiDocument,
  type Operation,
  type SchemaSite,
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
// The owner's world: one of each record, plus spares that destructive routes may consume.

type Kind =
  'pack' | 'version' | 'evaluation' | 'label' | 'dataset' | 'simulation' | 'key' | 'endpoint' | 'delivery';

interface World {
  email: string;
  key: string;
  cookie: string;
  userId: string;
  /** `own` ids serve ordinary routes; `spare` ids (when any) serve DELETE and rotate, so the fuzz keeps its records. */
  ids: Record<Kind, { own: string[]; spare: string[] }>;
  /** A real `nextCursor`, for tampering. */
  cursor: string;
  /** Every secret, cookie and email seen: none may appear in a log line. */
  secrets: Set<string>;
  emails: Set<string>;
}

let world: World;
let receiver: Receiver;
let worker: RunningProcess;
let workerHealthPort: number;

function kindOfPathParam(path: string, param: string): Kind | undefined {
  const byName: Record<string, Kind> = {
    packId: 'pack',
    datasetId: 'dataset',
    labelId: 'label',
    otherId: 'simulation',
  };
  if (byName[param]) return byName[param];
  const byCollection: [string, Kind][] = [
    ['/app/keys/', 'key'],
    ['/api/evaluations/', 'evaluation'],
    ['/api/simulations/', 'simulation'],
    ['/api/webhook-endpoints/', 'endpoint'],
    ['/api/webhook-deliveries/', 'delivery'],
  ];
  return byCollection.find(([prefix]) => path.startsWith(prefix))?.[1];
}

/** Query parameters and body properties that name the caller's records. */
const ID_FIELDS: Record<string, Kind> = {
  packId: 'pack',
  datasetId: 'dataset',
  simulationId: 'simulation',
  packVersionId: 'version',
  versionId: 'version',
  from: 'version',
  to: 'version',
};

const isDestructive = (op: Operation) => op.method === 'DELETE' || op.path.endsWith('/rotate');

/** Mostly an id of the caller's own record (read when generated: pools change), sometimes a stranger's. */
function ownId(kind: Kind, destructive: boolean): fc.Arbitrary<string> {
  const pick = anyIndex.map((i) => {
    const pool = world.ids[kind];
    const ids = destructive && pool.spare.length ? pool.spare : pool.own;
    return ids[i % ids.length];
  });
  return fc.oneof({ arbitrary: pick, weight: 9 }, { arbitrary: fc.uuid({ version: 4 }), weight: 1 });
}

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
  // Uploads fill datasets (250 tickets each); empty ones keep accepting, so tickets reach storage.
  const emptyDatasets = [];
  for (let i = 0; i < 6; i++)
    emptyDatasets.push(await ok(keyed.post('/api/datasets', { name: 'empty' }), 'dataset'));
  const simulations = [
    await ok(keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id }), 'simulation'),
    await ok(keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id }), 'simulation'),
  ];
  const spareKeys = [];
  for (let i = 0; i < 3; i++) spareKeys.push(await ok(session.post('/app/keys', { name: 'spare' }), 'key'));
  const endpoint = await ok(keyed.post('/api/webhook-endpoints', { url: receiver.url }), 'endpoint');
  await ok(keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket }), 'inbound');
  const delivery = await eventually(async () => (await keyed.get('/api/webhook-deliveries')).body.items?.[0]);
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
      // The fuzzing key itself is never offered: revoking it would end the run.
      key: ids(
        spareKeys.map((k) => k.id),
        spareKeys.map((k) => k.id),
      ),
      endpoint: ids([endpoint.id]),
      delivery: ids([delivery.id]),
    },
    cursor: page.nextCursor,
    secrets: new Set([keyRes.body.secret, ...spareKeys.map((k) => k.secret), endpoint.secret]),
    emails: new Set([email]),
  };
}

// ---------------------------------------------------------------------------------------------
// Requests: one generated case, sent raw (exact bytes, exact path) with each credential.

interface Case {
  family: string;
  /** What was broken, in a few words. */
  note: string;
  method: string;
  /** Path and query exactly as sent (already percent-encoded, or deliberately not). */
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The case carries its own (junk) credential: send it once, as is. */
  ownCredential?: boolean;
  /** Also send it without any credential. */
  anonymous: boolean;
  /** The key as `Authorization: Bearer` instead of `x-api-key`. */
  bearer: boolean;
  /** The JSON body breaks the operation's documented schema, so it must not be accepted. */
  forbidden?: boolean;
}

type Credential = 'key' | 'bearer' | 'session' | 'none';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Set when no response came back at all. */
  failure?: string;
}

function makeCase(fields: Omit<Case, 'anonymous' | 'bearer'> & Partial<Case>): Case {
  const c: Case = { anonymous: false, bearer: false, ...fields };
  // fast-check prints counterexamples with this: short, whatever the body's size.
  return Object.assign(c, {
    [fc.toStringMethod]: () => {
      const body = c.body ? ` body(${c.body.length} B)=${preview(c.body.toString('utf8'), 160)}` : '';
      const shown = Object.entries(c.headers).map(([name, value]) => `${name}: ${preview(value, 40)}`);
      const headers = shown.length ? ` headers={${shown.join(', ')}}` : '';
      return `${c.method} ${preview(c.url, 160)} [${c.family}: ${c.note}]${headers}${body}`;
    },
  });
}

function preview(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
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
 * the OAuth endpoints, whose errors have the OAuth body `{error, error_description?}` (RFC 6749).
 */
function contractViolations(
  reply: Reply,
  { forbidden = false, may503 = false, oauth = false } = {},
): string[] {
  if (reply.failure) return [`no response (${reply.failure})`];
  const problems: string[] = [];
  if (forbidden && reply.status >= 200 && reply.status < 300)
    problems.push(`${reply.status} for a body the document forbids`);
  const documented503 = may503 && reply.status === 503;
  if (reply.status >= 500 && !documented503) problems.push(`status ${reply.status}`);
  const type = String(reply.headers['content-type'] ?? '');
  if (reply.status !== 204 && !/^application\/json\s*(;|$)/.test(type))
    problems.push(`content-type "${type || 'none'}"`);
  if (reply.status >= 400 && !documented503) {
    if (!isErrorBody(reply.text, oauth ? 'error_description' : 'issues'))
      problems.push(`error body is not exactly {error, ${oauth ? 'error_description' : 'issues'}?}`);
    if (PLANTED.some((marker) => reply.text.includes(marker))) problems.push('planted text echoed');
  }
  return problems;
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
// Valid requests: path ids, query, body and headers an honest client would send.

function bodyOptions(): ArbitraryOptions {
  const options: ArbitraryOptions = {
    plant: { schemas: ['TicketDto'], marker: MARKER },
    override: (site: SchemaSite) => bodyOverride(site, options),
  };
  return options;
}

function bodyOverride(site: SchemaSite, options: ArbitraryOptions): fc.Arbitrary<unknown> | undefined {
  const kind = ID_FIELDS[site.property ?? ''];
  if (kind && site.schema.format === 'uuid') return ownId(kind, false);
  const alnum = fc.string({
    unit: oneOf(...'abcdefghijklmnopqrstuvwxyz0123456789'),
    maxLength: 10,
  });
  if (site.property === 'email') return alnum.map((s) => `${EMAIL_MARK}${s}@example.com`);
  if (site.property === 'password') return fc.string({ maxLength: 30 }).map((s) => `${PASSWORD_MARK}${s}`);
  if (site.property === 'url')
    return oneOf(receiver.url, 'http://127.0.0.1:1/closed', 'not a url', 'ftp://example.com/x');
  const plain = () => schemaArbitrary(doc, site.schema, { ...options, override: undefined });
  // Random documents and labels rarely fit; known-good ones reach the code behind validation.
  if (site.schemaName === 'PackDocumentDto' && site.property === 'document')
    return fc.oneof(fc.constant(EXAMPLE_PACK.document), plain());
  if (site.schemaName === 'CreateLabelDto' && site.property === undefined)
    return fc.oneof(oneOf(...VALID_LABELS), plain());
  return undefined;
}

interface BaseRequest {
  path: string;
  query: string[];
  headers: Record<string, string>;
  body?: unknown;
}

/** `destructive` draws path ids from the spares, for requests that may delete what they name. */
function baseRequest(op: Operation, destructive = isDestructive(op)): fc.Arbitrary<BaseRequest> {
  const params: Record<string, fc.Arbitrary<string>> = {};
  for (const name of op.pathParams) {
    const kind = kindOfPathParam(op.path, name);
    params[name] = kind ? ownId(kind, destructive) : fc.uuid({ version: 4 });
  }
  const query = op.queryParams.map((p) => {
    const kind = ID_FIELDS[p.name];
    const value = kind ? ownId(kind, false) : schemaArbitrary(doc, p.schema ?? { type: 'string' });
    const pair = value.map((v) => `${p.name}=${encodeURIComponent(String(v))}`);
    return p.required ? pair : fc.option(pair, { nil: undefined });
  });
  const body = op.bodySchema ? schemaArbitrary(doc, op.bodySchema, bodyOptions()) : fc.constant(undefined);
  return fc.record({ params: fc.record(params), query: fc.tuple(...query), body }).map((r) => ({
    path: op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(r.params[name])),
    query: r.query.filter((q): q is string => q !== undefined),
    headers: {},
    body: r.body,
  }));
}

const documented = schemaChecker(doc);

const flags = fc.record({ anonymous: fc.boolean(), bearer: fc.boolean() });

/** A case from a base request with some of its parts replaced. */
function caseFrom(
  op: Operation,
  family: string,
  note: string,
  base: BaseRequest,
  extra: { anonymous: boolean; bearer: boolean },
  /** A Buffer body is sent as is; any other body is written as JSON. */
  change: Partial<Omit<Case, 'body'>> & { body?: unknown } = {},
): Case {
  const body = 'body' in change ? change.body : base.body;
  const encoded =
    body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(toJsonText(body), 'utf8');
  const jsonType: Record<string, string> =
    encoded && !Buffer.isBuffer(body) ? { 'content-type': 'application/json' } : {};
  const url = base.path + (base.query.length ? `?${base.query.join('&')}` : '');
  const method = change.method ?? op.method;
  const forbidden =
    !!op.bodySchema && !!encoded && !Buffer.isBuffer(body) && method === op.method
      ? !documented(op.bodySchema, JSON.parse(encoded.toString('utf8')))
      : false;
  return makeCase({
    forbidden,
    family,
    note,
    method: op.method,
    url,
    ...extra,
    ...change,
    headers: { ...jsonType, ...base.headers, ...change.headers },
    body: encoded,
  });
}

// ---------------------------------------------------------------------------------------------
// Ways to break a request, one family at a time.

interface Family {
  name: string;
  /** Runs are FUZZ_RUNS times this: families whose sites are many, or whose breakage is rare, get more. */
  weight?: number;
  applies(op: Operation): boolean;
  cases(op: Operation): fc.Arbitrary<Case>;
}

const hasBody = (op: Operation) => !!op.bodySchema;
const showPath = (path: JsonPath) => (path.length ? path.join('.') : '(root)');

function describeValue(value: unknown): string {
  if (value instanceof RawJson) return `raw ${preview(value.text, 24)}`;
  if (typeof value === 'string') return JSON.stringify(preview(value, 24));
  if (Array.isArray(value))
    return value.length > 3 ? `[${value.length} items]` : preview(toJsonText(value), 40);
  return preview(toJsonText(value) ?? String(value), 40);
}

type Sites = FieldSite[];

/** A body family: one place of a schema-valid body (picked by index among `sites`) replaced. */
function bodyFamily(
  name: string,
  replacement: (site: FieldSite & { value: unknown }) => fc.Arbitrary<unknown>,
  { sites = (all: Sites) => all, weight = 1 }: { sites?: (all: Sites) => Sites; weight?: number } = {},
): Family {
  return {
    name,
    weight,
    applies: hasBody,
    cases: (op) =>
      fc.tuple(baseRequest(op), flags, anyIndex).chain(([base, extra, index]) => {
        const candidates = sites(fieldSites(doc, op.bodySchema, base.body));
        const site = candidates[index % candidates.length] ?? { path: [], optional: false };
        const value = getAt(base.body, site.path);
        return replacement({ ...site, value }).map((replaced) =>
          caseFrom(op, name, `${showPath(site.path)} = ${describeValue(replaced)}`, base, extra, {
            body: setAt(base.body, site.path, replaced),
          }),
        );
      }),
  };
}

const BODY_FAMILIES: Family[] = [
  bodyFamily('types', () => oneOf(...WRONG_TYPES), { weight: 2 }),
  bodyFamily('nulls', () => fc.constant(null), { weight: 2 }),
  {
    // Every field null at once, and every optional field the schema declares set to null.
    name: 'all-nulls',
    applies: hasBody,
    cases: (op) =>
      fc.tuple(baseRequest(op), flags, fc.boolean()).map(([base, extra, optionalOnly]) => {
        const sites = fieldSites(doc, op.bodySchema, base.body).filter(
          (s) => s.path.length > 0 && (!optionalOnly || s.optional),
        );
        const body = sites.reduce<unknown>(
          (b, s) => (getAt(b, s.path.slice(0, -1)) === null ? b : setAt(b, s.path, null)),
          base.body,
        );
        const note = optionalOnly ? 'every optional field null' : 'every field null';
        return caseFrom(op, 'all-nulls', note, base, extra, { body });
      }),
  },
  bodyFamily('shapes', (site) => reshaped(site.value), { sites: structuralSites, weight: 2 }),
  bodyFamily('oversize', (site) => oversized(site.value, MARKER)),
  bodyFamily('nesting', () => nested),
  {
    name: 'strings',
    weight: 2,
    applies: hasBody,
    cases: (op) =>
      fc
        .tuple(
          baseRequest(op),
          flags,
          oneOf(...ODD_TEXT),
          oneOf('text' as const, 'map keys' as const, 'everything' as const),
        )
        .map(([base, extra, odd, where]) => {
          const body = withOddText(base.body, fieldSites(doc, op.bodySchema, base.body), odd, where);
          return caseFrom(op, 'strings', `${JSON.stringify(odd)} in every ${where}`, base, extra, { body });
        }),
  },
  bodyFamily(
    'strings-one',
    (site) => oneOf(...ODD_TEXT).map((odd) => `${typeof site.value === 'string' ? site.value : ''}${odd}`),
    { sites: (all) => all.filter((s) => s.schema?.type === 'string'), weight: 2 },
  ),
  {
    name: 'keys',
    applies: hasBody,
    cases: (op) =>
      fc
        .tuple(
          baseRequest(op),
          flags,
          anyIndex,
          oneOf(...FORBIDDEN_KEYS, ...UNKNOWN_KEYS),
          oneOf<unknown>({}, { polluted: true }, null, 'x', [], JSON.parse('{"__proto__":{"isAdmin":true}}')),
        )
        .map(([base, extra, index, key, item]) => {
          const sites = objectSites(fieldSites(doc, op.bodySchema, base.body));
          const site = sites[index % sites.length];
          const body = setAt(base.body, site.path, withKey(getAt(base.body, site.path), key, item));
          return caseFrom(op, 'keys', `${showPath(site.path)}.${key} = ${describeValue(item)}`, base, extra, {
            body,
          });
        }),
  },
  {
    name: 'whole-body',
    applies: hasBody,
    cases: (op) =>
      fc
        .tuple(
          baseRequest(op),
          flags,
          oneOf<unknown>(
            [],
            [[]],
            null,
            'text',
            1,
            true,
            {},
            deeplyNested('object', 10_000),
            deeplyNested('array', 10_000),
          ),
        )
        .map(([base, extra, body]) =>
          caseFrom(op, 'whole-body', `body = ${describeValue(body)}`, base, extra, { body }),
        ),
  },
];

/** Path segments: the caller's ids, other kinds' ids, strangers' UUIDs, junk and encoded junk. */
function pathSegments(op: Operation, name: string): fc.Arbitrary<string> {
  const kind = kindOfPathParam(op.path, name);
  const own = kind ? ownId(kind, isDestructive(op)) : fc.uuid({ version: 4 });
  // Ids of the caller's records of other kinds (a pack id where a dataset id belongs).
  const otherKinds = oneOf(
    ...(['pack', 'evaluation', 'dataset', 'simulation', 'version'] as Kind[]).filter((k) => k !== kind),
  ).chain((k) => ownId(k, isDestructive(op)));
  const junk = oneOf(
    'not-a-uuid',
    '0',
    '-1',
    'null',
    '__proto__',
    'constructor',
    '%00',
    '%ff',
    '%2e%2e',
    '..',
    '%2f',
    '%25',
    '%',
    'a'.repeat(200),
    '%ED%A0%80',
    '%E2%80%AEabc',
    encodeURIComponent('العربية'),
    '%20',
    '00000000-0000-0000-0000-000000000000',
    'x'.repeat(101),
  );
  const bent = own.chain((id) =>
    oneOf(id.toUpperCase(), `${id}a`, id.replace(/-/g, ''), `%7B${id}%7D`, id.slice(1)),
  );
  return fc.oneof(own, otherKinds, fc.uuid({ version: 4 }), junk, bent);
}

const PATH_FAMILY: Family = {
  name: 'path',
  applies: (op) => op.pathParams.length > 0,
  cases: (op) =>
    fc
      .tuple(baseRequest(op), flags, fc.tuple(...op.pathParams.map((name) => pathSegments(op, name))))
      .map(([base, extra, segments]) => {
        let i = 0;
        const path = op.path.replace(/\{[^}]+\}/g, () => segments[i++]);
        return caseFrom(
          op,
          'path',
          `params ${segments.map((s) => preview(s, 40)).join(', ')}`,
          { ...base, path },
          extra,
        );
      }),
};

function cursorJunk(): fc.Arbitrary<string> {
  const b64 = (s: string) => Buffer.from(s).toString('base64url');
  const flip = (s: string, at: number) => {
    const i = at % s.length;
    return s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  };
  return fc.oneof(
    fc.string({ maxLength: 60 }).map(encodeURIComponent),
    fc.base64String({ maxLength: 80 }).map(encodeURIComponent),
    fc.jsonValue({ maxDepth: 2 }).map((v) => `${b64(JSON.stringify(v))}.${b64('x'.repeat(16))}`),
    anyIndex.map((at) => encodeURIComponent(flip(world.cursor, at))),
    oneOf(
      encodeURIComponent(world.cursor),
      encodeURIComponent(`${world.cursor}.x`),
      encodeURIComponent(world.cursor.split('.')[0]),
      `${b64('["2026-01-01 00:00:00+00","not-a-uuid"]')}.AAAAAAAAAAAAAAAAAAAAAA`,
      `${b64('[-1]')}.AAAAAAAAAAAAAAAAAAAAAA`,
      '%00',
      '.',
    ),
  );
}

const QUERY_JUNK = [
  '',
  '%00',
  'a%00b',
  '%ff',
  '%ED%A0%80',
  encodeURIComponent('\u202eالعربية😀'),
  'a'.repeat(5_000),
  'a'.repeat(70_000),
  '%',
  'true',
  '-1',
  '1e999',
  'NaN',
  '[]',
  '__proto__',
];

const QUERY_FAMILY: Family = {
  name: 'query',
  applies: (op) => op.queryParams.length > 0,
  cases: (op) =>
    fc
      .tuple(
        baseRequest(op),
        flags,
        oneOf(...op.queryParams.map((p) => p.name)),
        fc.oneof(oneOf(...QUERY_JUNK), cursorJunk()),
        oneOf('replace', 'repeat', 'bracket'),
      )
      .map(([base, extra, name, junk, how]) => {
        const others = base.query.filter((q) => !q.startsWith(`${name}=`));
        // `?a=1&a=2` arrives as an array; `a[]=`/`a[b]=` probe nested-query parsers.
        const added =
          how === 'repeat'
            ? [`${name}=${junk}`, `${name}=${junk}2`]
            : how === 'bracket'
              ? [`${name}[]=${junk}`, `${name}[b]=1`]
              : [`${name}=${junk}`];
        const note = `${how} ${name}=${preview(junk, 40)}`;
        return caseFrom(op, 'query', note, { ...base, query: [...others, ...added] }, extra);
      }),
};

const utf8AsLatin1 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

interface HeaderChange {
  note: string;
  headers: Record<string, string>;
  /** Sent instead of the generated body (bad content types need one). */
  body?: Buffer;
  /** The headers are the credential. */
  ownCredential?: boolean;
}

const headerChange = (note: string, headers: Record<string, string>, more: Partial<HeaderChange> = {}) => ({
  note,
  headers,
  ...more,
});

/** Bad content types, idempotency keys, request ids, oversized headers and junk credentials. */
function headerChanges(): fc.Arbitrary<HeaderChange> {
  const body = Buffer.from('{"x":1}');
  const contentTypes = oneOf(
    'text/plain',
    'multipart/form-data; boundary=----fuzz',
    'application/json; charset=utf-16',
    'application/json; charset=latin1',
    'application/x-www-form-urlencoded',
    'application/jsonx',
    'application/json, text/plain',
    '',
    utf8AsLatin1('application/jsön'),
  );
  const idempotency = oneOf(
    '',
    ' ',
    'a'.repeat(129),
    'a'.repeat(128),
    utf8AsLatin1('ключ-🔑'),
    '\u00e9t\u00e9',
  );
  const requestIds = oneOf(
    'a'.repeat(300),
    '../../etc/passwd',
    utf8AsLatin1('идентификатор'),
    '<script>',
    'a b',
    '',
  );
  const junkCredentials: [string, Record<string, string>][] = [
    ['x-api-key random', { 'x-api-key': `tj_${randomBytes(16).toString('hex')}` }],
    ['x-api-key empty', { 'x-api-key': '' }],
    ['bearer empty', { authorization: 'Bearer ' }],
    ['bearer two words', { authorization: 'Bearer a b' }],
    ['basic auth', { authorization: 'Basic Zm9vOmJhcg==' }],
    ['session cookie junk', { cookie: 'tj_session=junk' }],
    ['session cookie tampered', { cookie: `${world.cookie.slice(0, -2)}xx` }],
    ['cookie header junk', { cookie: utf8AsLatin1('tj_session=ü; ;;=') }],
  ];
  return fc.oneof(
    contentTypes.map((t) =>
      headerChange(`content-type ${JSON.stringify(t)}`, { 'content-type': t }, { body }),
    ),
    fc.constant(headerChange('body without content-type', {}, { body })),
    fc.constant(
      headerChange('empty JSON body', { 'content-type': 'application/json' }, { body: Buffer.alloc(0) }),
    ),
    idempotency.map((k) =>
      headerChange(`Idempotency-Key ${preview(JSON.stringify(k), 20)}`, { 'idempotency-key': k }),
    ),
    requestIds.map((id) =>
      headerChange(`x-request-id ${preview(JSON.stringify(id), 20)}`, { 'x-request-id': id }),
    ),
    oneOf(20_000, 70_000).map((n) =>
      headerChange(`x-fuzz header of ${n} chars`, { 'x-fuzz': 'a'.repeat(n) }),
    ),
    oneOf('text/html', 'application/xml', '*/*;q=0').map((a) => headerChange(`accept ${a}`, { accept: a })),
    oneOf(...junkCredentials).map(([note, h]) => headerChange(note, h, { ownCredential: true })),
  );
}

const HEADER_FAMILY: Family = {
  name: 'headers',
  applies: () => true,
  cases: (op) =>
    fc
      .tuple(baseRequest(op), flags, headerChanges())
      .map(([base, extra, { note, headers, body, ownCredential }]) =>
        caseFrom(op, 'headers', note, base, extra, { headers, ownCredential, ...(body ? { body } : {}) }),
      ),
};

const VERB_FAMILY: Family = {
  name: 'verbs',
  applies: () => true,
  cases: (op) =>
    fc
      .tuple(
        // Another verb on the same path may be its DELETE: only spare records are named.
        baseRequest(op, true),
        flags,
        oneOf(...['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((m) => m !== op.method)),
      )
      .map(([base, extra, method]) =>
        caseFrom(op, 'verbs', `${method} instead of ${op.method}`, base, extra, { method }),
      ),
};

/** CSV uploads: NUL, lone-surrogate bytes, missing headers, a huge cell, unbalanced quotes. */
function csvBodies(): fc.Arbitrary<[string, Buffer]> {
  const cell = fc.string({ maxLength: 20 }).map((s) => `${s.replace(/[",\r\n]/g, '')} ${MARKER}`);
  const headers = fc.oneof(
    {
      arbitrary: oneOf('subject,customerMessage', 'externalId,subject,customerMessage,plan'),
      weight: 3,
    },
    oneOf(
      'foo,bar',
      '',
      'subject,subject,customerMessage',
      '\ufeffsubject,customerMessage',
      'subject\u0000,customerMessage',
      '__proto__,subject,customerMessage',
    ),
  );
  // Each breaker spoils the first data row only, so the rest of the upload stays plausible.
  const breakers: [string, (row: string) => Buffer][] = [
    ['plain', (row) => Buffer.from(row)],
    ['NUL in a cell', (row) => Buffer.from(row.replace(' ', '\u0000'))],
    ['lone surrogate bytes', (row) => Buffer.concat([Buffer.from(row), Buffer.from([0xed, 0xa0, 0x80])])],
    ['invalid UTF-8', (row) => Buffer.concat([Buffer.from(row), Buffer.from([0xff, 0xfe])])],
    ['unbalanced quote', (row) => Buffer.from(`"${row}`)],
    ['quote mid-cell', (row) => Buffer.from(row.replace(' ', ' "x" '))],
    ['huge cell', (row) => Buffer.from(`${row}${'y'.repeat(900_000)}`)],
    ['extra field', (row) => Buffer.from(`${row},extra,more`)],
    ['missing field', (row) => Buffer.from(row.split(',')[0])],
  ];
  return fc
    .tuple(
      headers,
      fc.array(fc.tuple(cell, cell, cell, cell), { minLength: 1, maxLength: 4 }),
      oneOf(...breakers),
      oneOf('\n', '\r\n'),
      oneOf(false, false, true),
    )
    .map(([header, cells, [note, breakRow], eol, overCapacity]) => {
      const width = Math.max(header.split(',').length, 1);
      // 251 rows: one more than a dataset holds.
      const rows = Array.from({ length: overCapacity ? 251 : cells.length }, (_, i) =>
        cells[i % cells.length].slice(0, width).join(','),
      );
      const lines = rows.map((row, i) => (i === 0 ? breakRow(row) : Buffer.from(row)));
      const body = Buffer.concat(
        [header, ...lines].map((line) => Buffer.concat([Buffer.from(line), Buffer.from(eol)])),
      );
      return [`${note}, header ${JSON.stringify(preview(header, 30))}, ${rows.length} rows`, body];
    });
}

const CSV_FAMILY: Family = {
  name: 'csv',
  weight: 6,
  applies: (op) => op.bodyTypes.includes('text/csv'),
  cases: (op) =>
    fc
      .tuple(
        baseRequest(op),
        flags,
        csvBodies(),
        oneOf('text/csv', 'text/csv; charset=utf-8', 'text/csv; charset=latin1'),
      )
      .map(([base, extra, [note, body], type]) =>
        caseFrom(op, 'csv', `${type}: ${note}`, base, extra, { body, headers: { 'content-type': type } }),
      ),
};

const VALID_FAMILY: Family = {
  name: 'valid',
  applies: () => true,
  cases: (op) =>
    fc
      .tuple(baseRequest(op), flags)
      .map(([base, extra]) => caseFrom(op, 'valid', 'schema-valid', base, extra)),
};

const FAMILIES = [
  VALID_FAMILY,
  ...BODY_FAMILIES,
  PATH_FAMILY,
  QUERY_FAMILY,
  HEADER_FAMILY,
  VERB_FAMILY,
  CSV_FAMILY,
];

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

/**
 * Requests no HTTP client would send (a bad Content-Length, a header line without a colon): Node's
 * parser refuses them before any route runs, and the answer, when there is one, still keeps the contract.
 */
const MALFORMED_HTTP: [string, string][] = [
  ['bad content-length', 'POST /api/judge HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
  [
    'length and chunked',
    'POST /api/judge HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  ],
  [
    'bad chunk size',
    'POST /api/judge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
  ],
  ['header without colon', 'GET /api/packs HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'],
  ['NUL in a header value', 'GET /api/packs HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n'],
  ['unknown HTTP version', 'GET /api/packs HTTP/9.9\r\nHost: x\r\n\r\n'],
  ['space in the path', 'GET /api/pa cks HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['unknown method', 'BREW /api/packs HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['bad percent-encoding', 'GET /api/packs/%ff HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['oversized header', `GET /api/packs HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`],
];

/** Writes raw bytes and reads whatever comes back until the server closes or goes quiet. */
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

/** Query keys that Nest, class-transformer and class-validator each hid from the unknown-field rule. */
const BUILT_IN_QUERY_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'prototype'];

/** Where a client may put a credential in a query string, refused or not: no value may reach a log. */
const SECRET_QUERY_PARAMS = [
  'access_token',
  'token',
  'code',
  'refresh_token',
  'client_secret',
  'code_verifier',
  'state',
];
const SECRET_QUERY_ROUTES: [method: string, path: string][] = [
  ['POST', '/mcp'],
  ['GET', '/mcp'],
  ['GET', '/oauth/authorize'],
  ['POST', '/oauth/token'],
  ['POST', '/oauth/revoke'],
  ['GET', '/api/evaluations'],
  ['POST', '/api/judge'],
  ['GET', '/api/nope'],
  ['GET', '/login'],
  ['GET', '/docs/openapi.json'],
];

/** Each secret parameter as sent, in lower case, in upper case and with its first letter percent-encoded. */
function secretQuery(tag: string): { query: string; values: string[] } {
  const values: string[] = [];
  const pairs = SECRET_QUERY_PARAMS.flatMap((name, i) => {
    const spellings = [name, name.toUpperCase(), `%${name.charCodeAt(0).toString(16)}${name.slice(1)}`];
    return spellings.map((spelling, j) => {
      values.push(`tj_at_${tag}${TAG}${i}x${j}`);
      return `${spelling}=${values.at(-1)}`;
    });
  });
  return { query: pairs.join('&'), values };
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
  }, 60_000);

  afterAll(async () => {
    if (worker) await stopWorker(worker);
    await api.close();
    await receiver?.close();
  });

  it('reads every operation from the served document', () => {
    expect(OPERATIONS.length).toBeGreaterThan(20);
    expect(OPERATIONS.map((op) => `${op.method} ${op.path}`)).toEqual(
      expect.arrayContaining(['POST /api/judge', 'POST /api/datasets/{datasetId}/tickets', 'GET /healthz']),
    );
  });

  for (const op of OPERATIONS) {
    it(`${op.method} ${op.path}`, async () => {
      const failures = await Promise.all(FAMILIES.filter((f) => f.applies(op)).map((f) => runFamily(op, f)));
      const failed = failures.filter((f): f is FamilyFailure => f !== null);
      if (failed.length) throw new Error(compactReport(op, failed));
    }, 90_000);
  }

  it('refuses query keys named like built-in properties on every GET route with a query', async () => {
    const routes = OPERATIONS.filter((op) => op.method === 'GET' && op.queryParams.length > 0);
    expect(routes.length).toBeGreaterThan(3);
    const wrong: string[] = [];
    for (const op of routes) {
      const [base] = fc.sample(baseRequest(op), { seed: seedFor(op, 'built-in keys'), numRuns: 1 });
      for (const key of BUILT_IN_QUERY_KEYS) {
        const broken = { ...base, query: [...base.query, `${key}=1`] };
        const c = caseFrom(op, 'built-in keys', key, broken, { anonymous: false, bearer: false });
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
      const { query, values } = secretQuery(path.replace(/\W/g, ''));
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
