import type { DefaultJobOptions, Job } from 'bullmq';
import type { QueueName } from './queues.js';

/**
 * What producers and the handler share about one job: its queue and name, with its payload and
 * result types. A job's file adds its options and job id next to it (see docs/architecture.md).
 */
export interface JobDefinition<P = unknown, R = unknown> {
  readonly queue: QueueName;
  readonly name: string;
  /** Never set: carries the payload and result types to producers and the handler. */
  readonly types?: { payload: P; result: R };
}

export type JobPayload<D extends JobDefinition> = NonNullable<D['types']>['payload'];
export type JobResult<D extends JobDefinition> = NonNullable<D['types']>['result'];

/**
 * Runs one job of `definition`; the worker's processor for its queue dispatches to it by name.
 * Handlers are plain classes the processor builds with the services Nest gives it, and their files
 * import those services as types only: a service that enqueues through its job's file (the runner,
 * InboundJudge) would otherwise close an import cycle, which fails at load in ES modules.
 */
export interface JobHandler<D extends JobDefinition = JobDefinition> {
  readonly definition: D;
  handle(job: Job<JobPayload<D>, JobResult<D>>, token?: string): Promise<JobResult<D>>;
}

const declared = new Map<string, JobDefinition>();

/**
 * Declares a job once, in its own file: `defineJob<Payload, Result>()({ queue, name, options, jobId })`.
 * Every declared job is recorded, so each queue's table can check that none lacks a handler.
 */
export function defineJob<P extends object, R>() {
  return <const D extends { readonly queue: QueueName; readonly name: string }>(
    definition: D,
  ): D & JobDefinition<P, R> => {
    const key = `${definition.queue}/${definition.name}`;
    if (declared.has(key)) throw new Error(`job ${key} is declared twice`);
    declared.set(key, definition);
    return definition;
  };
}

/** The jobs declared on `queue` by the job files loaded so far. */
export function declaredJobs(queue: QueueName): JobDefinition[] {
  return [...declared.values()].filter((definition) => definition.queue === queue);
}

/**
 * Exponential backoff from `delayMs` (with `jitter`, if given); retention is capped so Redis does
 * not grow with finished jobs.
 */
export function retriedJobOptions(retry: {
  attempts: number;
  delayMs: number;
  jitter?: number;
  keepCompleted: number;
  keepFailed: number;
}): DefaultJobOptions {
  const { attempts, delayMs, jitter, keepCompleted, keepFailed } = retry;
  return {
    attempts,
    backoff: { type: 'exponential', delay: delayMs, ...(jitter === undefined ? {} : { jitter }) },
    removeOnComplete: { count: keepCompleted },
    removeOnFail: { count: keepFailed },
  };
}

/** Whether this run is the job's last: BullMQ will not retry it if it throws. */
export function isLastAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}
