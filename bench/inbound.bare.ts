// Child process: the yardstick of `bench:inbound`. A bare Fastify route that does what the inbound
// route must do at the least (parse the JSON body, one Postgres insert, one BullMQ add, answer 202)
// and nothing else: no credential, rate limit, validation, pack lookup or redaction.
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Fastify from 'fastify';
import pg from 'pg';
import { JUDGE_EVENT_JOB } from '@app/webhooks';
import { serveFastify } from './harness/processes.js';

const env = process.env;
// The API's pool size (TypeORM's default in dataSourceOptions) and the API's Redis connection options.
const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 10 });
const queue = new Queue('bare', {
  prefix: env.REDIS_PREFIX,
  connection: { url: env.REDIS_URL, maxRetriesPerRequest: null },
});

const app = Fastify({ logger: false });
app.post('/bare', async (request, reply) => {
  const id = randomUUID();
  // bench_bare is created by the benchmark in the scratch database before this process starts.
  await pool.query('INSERT INTO bench_bare (id, body) VALUES ($1, $2)', [id, JSON.stringify(request.body)]);
  // The same job options as the inbound route's enqueue, so both adds cost Redis the same.
  await queue.add('bare', { id }, { ...JUDGE_EVENT_JOB.options, jobId: `bare-${id}` });
  return reply.code(202).send({ eventId: id });
});

await serveFastify(app, async () => {
  await queue.close();
  await pool.end();
});
