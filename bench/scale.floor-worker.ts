// Child process: the floor of `bench:scale`'s workers. One BullMQ job an event, consumed from the
// queue `bare` that `inbound.bare.js` fills, doing what any worker on this stack must do at the least
// to judge an accepted event and deliver its completion durably:
// - read the event's body (the job carries its id, as the inbound route's does);
// - make the one model call (the exact chat request the worker sent, its last message the ticket);
// - insert the evaluation with the product's own INSERT (same table, indexes and statistics triggers);
// - POST the signed completion to the receiver;
// - record the delivery as done.
// The pack is read once at start. No redaction, prompt building, decision, batching across events,
// second job, claim, retries or sweeps.
import { Worker, type Job } from 'bullmq';
import pg from 'pg';
import { Pool as HttpPool } from 'undici';
import { loadConfig } from '@app/config';
import { signBody } from '@app/domain';
import { configuredWorkerOptions } from '../apps/worker/src/configured-worker-host.js';
import { judgeBare, readBarePack } from './harness/bare-judgment.js';
import { serveUntilStopped } from './harness/processes.js';

const env = process.env;
const required = (name: string): string => {
  const value = env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const chatRequest = JSON.parse(required('BENCH_CHAT_REQUEST')) as { messages: Array<{ content: string }> };
const packId = required('BENCH_PACK_ID');
const secret = required('BENCH_RECEIVER_SECRET');
const gateway = new URL(`${required('MODEL_GATEWAY_URL')}/chat/completions`);
const receiver = new URL(`${required('BENCH_RECEIVER_URL')}/completions`);
// The worker app's configuration from the same environment: its concurrency and lock settings.
const config = loadConfig(env);

// The worker's pool size (TypeORM's default in dataSourceOptions), its idle connections kept open so
// the benchmark's count of Postgres backends does not lose them; an undici keep-alive pool per
// origin, as the worker's gateway and delivery clients keep.
const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 10, idleTimeoutMillis: 0 });
const models = new HttpPool(gateway.origin, { keepAliveTimeout: 30_000 });
const receivers = new HttpPool(receiver.origin, { keepAliveTimeout: 30_000 });

const pack = await readBarePack(pool, packId);

async function judgeAndDeliver(job: Job<{ id: string }>): Promise<void> {
  const eventId = job.data.id;
  const event = await pool.query<{ body: { ticket?: unknown } }>({
    name: 'floor.event',
    text: 'SELECT body FROM bench_bare WHERE id = $1',
    values: [eventId],
  });
  const ticket = event.rows[0]?.body.ticket;
  if (ticket === undefined) throw new Error(`event ${eventId} not found`);
  const messages = chatRequest.messages.map((message, i, all) =>
    i === all.length - 1 ? { ...message, content: JSON.stringify(ticket) } : message,
  );
  const chat = JSON.stringify({ ...chatRequest, messages });
  const { id, result } = await judgeBare({ pool, http: models, url: gateway, pack }, chat, ticket);
  const body = JSON.stringify({ type: 'evaluation.completed', eventId, evaluation: { id, ...result } });
  const delivered = await receivers.request({
    path: receiver.pathname,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-signature': signBody(secret, body),
      'x-service-event-id': eventId,
    },
    body,
  });
  await delivered.body.dump();
  if (delivered.statusCode >= 300) throw new Error(`the receiver answered ${delivered.statusCode}`);
  await pool.query({
    name: 'floor.delivered',
    text: 'UPDATE bench_bare SET delivered_at = clock_timestamp() WHERE id = $1',
    values: [eventId],
  });
}

// The worker app's own BullMQ options, started at once (the app starts its Workers after boot).
const worker = new Worker<{ id: string }>('bare', judgeAndDeliver, {
  ...configuredWorkerOptions(config),
  autorun: true,
  prefix: env.REDIS_PREFIX,
  connection: { url: env.REDIS_URL, maxRetriesPerRequest: null },
});
await worker.waitUntilReady();
serveUntilStopped('', async () => {
  await worker.close();
  await Promise.all([models.close(), receivers.close(), pool.end()]);
});
