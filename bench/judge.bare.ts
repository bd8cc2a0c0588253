// Child process: the floor of `bench:judge`. A bare Fastify route that does what any judge route
// must do at the least: parse the JSON body, make the one model call (the exact chat request the API
// sends, over an undici keep-alive pool), parse its JSON answer, insert the evaluation row with the
// product's own INSERT (same table, indexes and statistics trigger) and answer. No credential, rate
// limit, validation, redaction, prompt building or decision.
import Fastify from 'fastify';
import pg from 'pg';
import { Pool as HttpPool } from 'undici';
import { judgeBare, readBarePack } from './harness/bare-judgment.js';
import { serveFastify } from './harness/processes.js';

const env = process.env;
const chatRequest = env.BENCH_CHAT_REQUEST ?? '';
const url = new URL(`${env.BENCH_GATEWAY_URL}/chat/completions`);
const packId = env.BENCH_PACK_ID ?? '';
if (!chatRequest || !packId) throw new Error('BENCH_CHAT_REQUEST and BENCH_PACK_ID are required');

// The API's pool size (TypeORM's default in dataSourceOptions). Idle connections stay open, so the
// benchmark's count of Postgres backends does not lose them while the other routes are measured.
const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 10, idleTimeoutMillis: 0 });
const http = new HttpPool(url.origin, { keepAliveTimeout: 30_000 });
const pack = await readBarePack(pool, packId);

const app = Fastify({ logger: false });
app.post('/bare', async (request, reply) => {
  const ticket = (request.body as { ticket?: unknown }).ticket ?? {};
  const { id, result } = await judgeBare({ pool, http, url, pack }, chatRequest, ticket);
  return reply.code(200).send({ evaluationId: id, result });
});

await serveFastify(app, async () => {
  await http.close();
  await pool.end();
});
