import { Queue } from 'bullmq';

/** The Redis the test run uses: the environment's `REDIS_URL`, else the local default. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A BullMQ queue on the test run's Redis under `prefix`: what a spec opens to look at, add to or
 * take from a worker's jobs. The caller closes it.
 */
export function openQueue(name: string, prefix: string): Queue {
  return new Queue(name, { prefix, connection: { url: REDIS_URL } });
}
