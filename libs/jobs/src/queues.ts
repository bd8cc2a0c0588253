import type { DefaultJobOptions } from 'bullmq';

/**
 * Every queue, job name and payload type, declared once. Producers and processors import these
 * names; payloads carry ids, never ticket text.
 */
export const QUEUES = {
  maintenance: 'maintenance',
} as const;

export const MAINTENANCE_JOBS = {
  cleanup: 'cleanup',
} as const;

/** Removes expired sessions and idempotency keys; scheduled hourly by every worker (one schedule). */
export type CleanupPayload = Record<string, never>;

export const MAINTENANCE_SCHEDULER_ID = 'maintenance-cleanup-hourly';
export const MAINTENANCE_EVERY_MS = 60 * 60 * 1000;

/** Retention is capped so Redis does not grow with finished jobs. */
export const MAINTENANCE_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 10_000 },
  removeOnComplete: { count: 24 },
  removeOnFail: { count: 100 },
};
