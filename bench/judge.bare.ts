// Child process: the floor of `bench:judge`. A bare Fastify route that does what any judge route
// must do at the least: parse the JSON body, make the one model call (the exact chat request the API
// sends, over an undici keep-alive pool), parse its JSON answer, insert the evaluation row with the
// product's own INSERT (same table, indexes and statistics trigger) and answer. No credential, rate
// limit, validation, redaction, prompt building or decision.
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { Pool as HttpPool } from 'undici';
// The product's own row and INSERT, which the lib keeps to itself (its barrel serves the apps).
import {
  toEvaluationRow,
  type NewEvaluation as Evaluation,
} from '../libs/persistence/src/repositories/evaluation-rows.js';
import { insertEvaluation } from '../libs/persistence/src/statements/evaluations.statements.js';
import { serveFastify } from './harness/processes.js';

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
const { user_id: userId, live_version_id: packVersionId } = rows[0];

interface Completion {
  model: string;
  choices: Array<{ message: { content: string } }>;
  usage: { prompt_tokens: number; completion_tokens: number };
}

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
  const completion = (await response.body.json()) as Completion;
  const answers = JSON.parse(completion.choices[0].message.content) as Evaluation['result']['answers'];
  const id = randomUUID();
  const latencyMs = Math.round(performance.now() - started);
  const result = {
    status: 'accept' as const,
    answers,
    reviewReasons: [],
    modelId: completion.model,
    latencyMs,
  };
  const row = toEvaluationRow({
    id,
    userId,
    packId,
    packVersionId,
    source: 'api',
    status: 'accept',
    redactedTicket: ticket as Evaluation['redactedTicket'],
    result,
    modelId: completion.model,
    latencyMs,
    inputTokens: completion.usage.prompt_tokens,
    outputTokens: completion.usage.completion_tokens,
  });
  await pool.query({
    name: insertEvaluation.preparedName,
    text: insertEvaluation.text,
    values: insertEvaluation.values(row),
  });
  return reply.code(200).send({ evaluationId: id, result });
});

await serveFastify(app, async () => {
  await http.close();
  await pool.end();
});
