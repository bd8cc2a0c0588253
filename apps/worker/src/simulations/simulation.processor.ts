import { Metrics } from '@app/metrics';
import { OnWorkerEvent, Processor } from '@nestjs/bullmq';
import { Inject, Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { QUEUES, SIMULATION_JOBS, type JudgeTicketPayload, type StartSimulationPayload } from '@app/jobs';
import { SimulationRunner, type TicketOutcome } from '@app/simulations';
import { ConfiguredWorkerHost, isLastAttempt } from '../configured-worker-host.js';

type SimulationJob =
  | Job<StartSimulationPayload, number, typeof SIMULATION_JOBS.start>
  | Job<JudgeTicketPayload, TicketOutcome, typeof SIMULATION_JOBS.ticket>;

/** Runs simulations: `start` fans out one job per ticket; `ticket` judges and records one ticket. */
@Processor(QUEUES.simulations, { autorun: false })
export class SimulationProcessor extends ConfiguredWorkerHost {
  private readonly logger = new Logger(SimulationProcessor.name);

  constructor(
    private readonly runner: SimulationRunner,
    @Inject(APP_CONFIG) protected readonly config: AppConfig,
    protected readonly metrics: Metrics,
  ) {
    super();
  }

  async process(job: SimulationJob): Promise<number | TicketOutcome> {
    if (job.name === SIMULATION_JOBS.start) return this.runner.start(job.data.simulationId);
    const { simulationId, ticketId } = job.data;
    return this.runner.judgeTicket(simulationId, ticketId, { lastAttempt: isLastAttempt(job) });
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
