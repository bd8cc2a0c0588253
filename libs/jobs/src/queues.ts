/**
 * Every queue, declared once. Each job is declared in its own file beside the service it calls
 * (`defineJob`); payloads carry ids, never ticket text.
 */
export const QUEUES = {
  maintenance: 'maintenance',
  shadow: 'shadow',
  simulations: 'simulations',
  webhooks: 'webhooks',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const ALL_QUEUES = Object.values(QUEUES);

/** How long a producer waits for Redis before leaving the work to the sweeper. */
export const ENQUEUE_TIMEOUT_MS = 2_000;

/** Resolves like `work`, or rejects after `ms`: BullMQ queues commands while Redis is away, forever. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
