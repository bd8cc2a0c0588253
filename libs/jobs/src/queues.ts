import type { DefaultJobOptions } from 'bullmq';

/**
 * Every queue, job name and payload type, declared once. Producers and processors import these
 * names; payloads carry ids, never ticket text.
 */
export const QUEUES = {
  maintenance: 'maintenance',
  simulations: 'simulations',
  webhooks: 'webhooks',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const ALL_QUEUES = Object.values(QUEUES);

export const MAINTENANCE_JOBS = {
  cleanup: 'cleanup',
  sweep: 'sweep',
} as const;

/** Removes expired sessions, idempotency keys and OAuth credentials, and never-approved OAuth clients; scheduled hourly by every worker (one schedule). */
export type CleanupPayload = Record<string, never>;
/** Re-enqueues work that was accepted in Postgres but never reached the queue (Redis was away). */
export type SweepPayload = Record<string, never>;

export const MAINTENANCE_SCHEDULER_ID = 'maintenance-cleanup-hourly';
export const MAINTENANCE_EVERY_MS = 60 * 60 * 1000;
/** Every WORKER_SWEEP_MS; work still queued twice that long after it was accepted is enqueued again. */
export const SWEEP_SCHEDULER_ID = 'maintenance-sweep';

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

/** Retention is capped so Redis does not grow with finished jobs. */
export const MAINTENANCE_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 10_000 },
  removeOnComplete: { count: 24 },
  removeOnFail: { count: 100 },
};

export const SIMULATION_JOBS = {
  /** Marks the simulation running and fans out one `ticket` job per dataset ticket. */
  start: 'start',
  /** Judges one ticket of the simulation and records its evaluation exactly once. */
  ticket: 'ticket',
} as const;

export interface StartSimulationPayload {
  simulationId: string;
}

export interface JudgeTicketPayload {
  simulationId: string;
  ticketId: string;
}

/** Job ids make enqueueing idempotent: the same start or ticket job is never queued twice. */
export const simulationStartJobId = (simulationId: string) => `simulation-${simulationId}`;
export const simulationTicketJobId = (simulationId: string, ticketId: string) =>
  `simulation-${simulationId}-${ticketId}`;

/** Transient failures (database, Redis) are retried with exponential backoff; model failures are results, not errors. */
export const SIMULATION_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { count: 5_000 },
  removeOnFail: { count: 5_000 },
};

export const WEBHOOK_JOBS = {
  /** Judges an accepted inbound event and records its evaluation (and delivery) exactly once. */
  judge: 'judge-event',
  /** Sends one completion delivery; BullMQ's attempts and backoff are the retry schedule. */
  deliver: 'deliver',
} as const;

export interface JudgeEventPayload {
  eventId: string;
}

export interface DeliverPayload {
  deliveryId: string;
}

export const inboundEventJobId = (eventId: string) => `event-${eventId}`;
export const deliveryJobId = (deliveryId: string, round = 0) => `delivery-${deliveryId}-${round}`;

export const JUDGE_EVENT_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { count: 5_000 },
  removeOnFail: { count: 5_000 },
};

/** Exponential backoff from `backoffMs`, with jitter so receivers are not hit in waves. */
export function deliveryJobOptions(maxAttempts: number, backoffMs: number): DefaultJobOptions {
  return {
    attempts: maxAttempts,
    backoff: { type: 'exponential', delay: backoffMs, jitter: 0.3 },
    removeOnComplete: { count: 5_000 },
    removeOnFail: { count: 5_000 },
  };
}
