import { describe, expect, it } from '@jest/globals';
import { UnrecoverableError, type Job } from 'bullmq';
import { declaredJobs, defineJob, type JobHandler } from './job-definition.js';
import { JobTable } from './job-table.js';
import { QUEUES } from './queues.js';

// The maintenance queue's real jobs live in the worker; these stand-ins are declared on it here.
const PING = defineJob<{ n: number }, number>()({ queue: QUEUES.maintenance, name: 'spec-ping' });
const PONG = defineJob<{ n: number }, string>()({ queue: QUEUES.maintenance, name: 'spec-pong' });

class Ping implements JobHandler<typeof PING> {
  readonly definition = PING;
  async handle(job: Job<{ n: number }>, token?: string): Promise<number> {
    return token ? -job.data.n : job.data.n + 1;
  }
}
class Pong implements JobHandler<typeof PONG> {
  readonly definition = PONG;
  async handle(job: Job<{ n: number }>): Promise<string> {
    return `pong ${job.data.n}`;
  }
}

const job = (name: string, n: number) => ({ name, data: { n } }) as unknown as Job;

describe('defineJob', () => {
  it('records each job on its queue, and refuses a second declaration of the same name', () => {
    expect(declaredJobs(QUEUES.maintenance).map((d) => d.name)).toEqual(['spec-ping', 'spec-pong']);
    expect(declaredJobs(QUEUES.webhooks)).toEqual([]);
    expect(() => defineJob<object, void>()({ queue: QUEUES.maintenance, name: 'spec-ping' })).toThrow(
      'job maintenance/spec-ping is declared twice',
    );
  });
});

describe('JobTable', () => {
  it('dispatches by job name, passing the token on', async () => {
    const table = new JobTable(QUEUES.maintenance, [new Ping(), new Pong()]);
    expect(table.names).toEqual(['spec-ping', 'spec-pong']);
    await expect(table.run(job('spec-ping', 1))).resolves.toBe(2);
    await expect(table.run(job('spec-ping', 1), 'token')).resolves.toBe(-1);
    await expect(table.run(job('spec-pong', 3))).resolves.toBe('pong 3');
  });

  it('fails a job whose name has no handler for good, naming it', async () => {
    const table = new JobTable(QUEUES.maintenance, [new Ping(), new Pong()]);
    const run = table.run(job('spec-other', 1));
    await expect(run).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(run).rejects.toThrow('no handler for job "spec-other" on queue maintenance');
  });

  it('will not start unless every declared job of its queue has exactly one handler', () => {
    expect(() => new JobTable(QUEUES.maintenance, [new Ping()])).toThrow(
      'no handler for maintenance/spec-pong',
    );
    expect(() => new JobTable(QUEUES.maintenance, [new Ping(), new Pong(), new Ping()])).toThrow(
      'job maintenance/spec-ping has two handlers',
    );
    expect(() => new JobTable(QUEUES.webhooks, [new Ping()])).toThrow(
      'job maintenance/spec-ping has a handler on queue webhooks',
    );
  });
});
