// Child process: the floor of `bench:judge`. A bare Fastify route that does what any judge route
// must do at the least: parse the JSON body, make the one model call (the exact chat request the API
// sends, over an undici keep-alive pool), parse its JSON answer, insert the evaluation row (the same
// table, indexes and statistics trigger as the API's) and answer. No credential, rate limit,
// validation, redaction, prompt building or decision.
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { Pool as HttpPool } from 'undici';
import { serveUntilStopped } from './child-process.js';

const env = process.env;
const chatRequest = env.BENCH_CHAT_REQUEST ?? '';
const gateway = new URL(`${env.BENCH_GATEWAY_URL}/chat/completions`);
const packId = env.BENCH_PACK_ID ?? '';
if (!chatRequest || !packId) throw new Error('BENCH_CHAT_REQUEST and BENCH_PACK_ID are required');

// The API's pool size (TypeORM's default in dataSourceOptions). Idle connections stay open, so the
// benchmark's count of Postgres backends does not lose them while the other routes are measured.
const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 10, idleTimeoutMillis: 0 });
const http = new HttpPool(gateway.origin, { keepAliveTimeout: 30_000 });
const { rows } = await pool.query<{ user_id: string; live_version_id: string }>(
  'SELECT user_id, live_version_id FROM packs WHERE id = $1',
  [packId],
);
if (!rows[0]) throw new Error(`pack ${packId} not found`);
const { user_id: userId, live_version_id: versionId } = rows[0];

const app = Fastify({ logger: false });
app.post('/bare', async (request, reply) => {
  const ticket = (request.body as { ticket?: unknown }).ticket ?? {};
  const started = performance.now();
  const response = await http.request({
    path: gateway.pathname,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer not-set' },
    body: chatRequest,
  });
  const completion = (await response.body.json()) as {
    model: string;
    choices: Array<{ message: { content: string } }>;
  };
  const answers = JSON.parse(completion.choices[0].message.content) as unknown;
  const id = randomUUID();
  const result = { status: 'accept', answers, reviewReasons: [], modelId: completion.model };
  await pool.query(
    `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id, latency_ms)
     VALUES ($1, $2, $3, $4, 'api', 'accept', $5, $6, $7, $8)`,
    [
      id,
      userId,
      packId,
      versionId,
      JSON.stringify(ticket),
      JSON.stringify(result),
      completion.model,
      Math.round(performance.now() - started),
    ],
  );
  return reply.code(200).send({ evaluationId: id, result });
});

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('the bare server has no TCP address');
serveUntilStopped(`http://127.0.0.1:${address.port}`, async () => {
  await app.close();
  await http.close();
  await pool.end();
});
