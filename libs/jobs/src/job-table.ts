import { UnrecoverableError, type Job } from 'bullmq';
import { declaredJobs, type JobDefinition } from './job-definition.js';
import type { QueueName } from './queues.js';

/** Any job's handler, as the table sees it: it only ever passes a handler its own jobs. */
interface QueuedJobHandler {
  readonly definition: Pick<JobDefinition, 'queue' | 'name'>;
  handle(job: Job, token?: string): Promise<unknown>;
}

/**
 * A queue's handlers by job name. Built at worker boot, it refuses to start unless every job
 * declared on the queue has exactly one handler; a job whose name has none fails for good.
 */
export class JobTable {
  private readonly handlers = new Map<string, QueuedJobHandler>();

  constructor(
    readonly queue: QueueName,
    handlers: readonly QueuedJobHandler[],
  ) {
    for (const handler of handlers) {
      const { queue: owner, name } = handler.definition;
      if (owner !== queue) throw new Error(`job ${owner}/${name} has a handler on queue ${queue}`);
      if (this.handlers.has(name)) throw new Error(`job ${queue}/${name} has two handlers`);
      this.handlers.set(name, handler);
    }
    const missing = declaredJobs(queue).filter((definition) => !this.handlers.has(definition.name));
    if (missing.length)
      throw new Error(`no handler for ${missing.map((d) => `${queue}/${d.name}`).join(', ')}`);
  }

  get names(): string[] {
    return [...this.handlers.keys()];
  }

  async run(job: Job, token?: string): Promise<unknown> {
    const handler = this.handlers.get(job.name);
    if (!handler) throw new UnrecoverableError(`no handler for job "${job.name}" on queue ${this.queue}`);
    return handler.handle(job, token);
  }
}
