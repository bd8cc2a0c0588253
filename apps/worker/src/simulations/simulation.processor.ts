import { Metrics } from '@app/metrics';
import { OnWorkerEvent } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { AppConfig } from '@app/config';
import { JobTable, QUEUES } from '@app/jobs';
import {
  JudgeTicketJob,
  SimulationRunner,
  StartSimulationJob,
  simulationJobConcurrency,
  type JudgeTicketPayload,
  type StartSimulationPayload,
} from '@app/simulations';
import { ConfiguredWorkerHost } from '../configured-worker-host.js';

type SimulationJob = Job<StartSimulationPayload | JudgeTicketPayload>;

/** The simulations queue's Worker options beyond the configured ones: see simulationJobConcurrency. */
export function simulationWorkerOptions(config: AppConfig) {
  return { concurrency: simulationJobConcurrency(config) };
}

/**
 * Runs simulations: `start` fans out one job per ticket; `ticket` judges and records one ticket.
 * The processor of QUEUES.simulations (declared by WorkerModule.forRoot, see configuredProcessor).
 */
@Injectable()
export class SimulationProcessor extends ConfiguredWorkerHost {
  private readonly logger = new Logger(SimulationProcessor.name);
  private readonly jobs: JobTable;

  constructor(
    private readonly runner: SimulationRunner,
    protected readonly metrics: Metrics,
  ) {
    super();
    this.jobs = new JobTable(QUEUES.simulations, [
      new StartSimulationJob(runner),
      new JudgeTicketJob(runner),
    ]);
  }

  process(job: SimulationJob): Promise<unknown> {
    return this.jobs.run(job);
  }

  /** After the last attempt the simulation cannot complete: it fails, with the reason kept. */
  @OnWorkerEvent('failed')
  async onFailed(job: SimulationJob | undefined, error: Error): Promise<void> {
    if (!job) return;
    const final = job.attemptsMade >= (job.opts.attempts ?? 1) || error.name === 'UnrecoverableError';
    this.logger.warn(
      { jobId: job.id, attempt: job.attemptsMade, final, err: error.message },
      'simulation job failed',
    );
    if (final)
      await this.runner.giveUp(
        job.data.simulationId,
        `${job.name} job failed: ${error.message}`.slice(0, 500),
      );
  }
}
