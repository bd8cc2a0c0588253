import { describe, expect, it } from '@jest/globals';
import type { Queue } from 'bullmq';
import type { AppConfig } from '@app/config';
import { ALL_QUEUES, declaredJobs } from '@app/jobs';
import type { Metrics } from '@app/metrics';
import { MaintenanceProcessor } from './maintenance/maintenance.processor.js';
import { ShadowProcessor } from './shadow/shadow.processor.js';
import { SimulationProcessor } from './simulations/simulation.processor.js';
import { WebhookProcessor } from './webhooks/webhook.processor.js';

/** A collaborator the constructors only hold: the tables never call it here. */
const none = <T>(): T => ({}) as T;
const config = { workerSweepMs: 60_000 } as AppConfig;

/** Each processor builds its queue's table in its constructor, which throws if a job lacks a handler. */
describe('the worker’s job tables', () => {
  it('give every declared job of every queue exactly one handler', () => {
    const tables = {
      maintenance: new MaintenanceProcessor({} as Queue, none(), none(), none(), config, none(), none()),
      simulations: new SimulationProcessor(none(), {} as Metrics),
      webhooks: new WebhookProcessor(none(), none(), {} as Metrics),
      shadow: new ShadowProcessor(none(), none(), {} as Metrics, {} as Queue, config),
    };
    for (const queue of ALL_QUEUES) {
      const names = (tables[queue] as unknown as { jobs: { names: string[] } }).jobs.names;
      expect(names.sort()).toEqual(
        declaredJobs(queue)
          .map((job) => job.name)
          .sort(),
      );
    }
    const declared = ALL_QUEUES.flatMap((queue) => declaredJobs(queue).map((job) => `${queue}/${job.name}`));
    expect(declared.sort()).toEqual([
      'maintenance/alert-check',
      'maintenance/calibration-refit',
      'maintenance/cleanup',
      'maintenance/sweep',
      'shadow/judge',
      'shadow/sample',
      'simulations/start',
      'simulations/ticket',
      'webhooks/deliver',
      'webhooks/judge-event',
    ]);
  });
});
