import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { JobTable, QUEUES } from '@app/jobs';
import { Metrics } from '@app/metrics';
import {
  JudgeShadowJob,
  LIVE_BACKLOG_PAUSE_MS,
  LiveBacklog,
  SAMPLE_SHADOW_JOB,
  SampleShadowJob,
  ShadowRunner,
  type JudgeShadowPayload,
  type SampleShadowPayload,
} from '@app/shadow';
import { ConfiguredWorkerHost } from '../configured-worker-host.js';

type ShadowJob = Job<JudgeShadowPayload | SampleShadowPayload>;

/**
 * The shadow queue's Worker options beyond the configured ones: SHADOW_CONCURRENCY slots, and a
 * limiter that never binds on its own (a manual rate limit needs one to be honoured; see JudgeShadowJob).
 */
export function shadowWorkerOptions(config: AppConfig) {
  return {
    concurrency: config.shadow.concurrency,
    limiter: { max: Number.MAX_SAFE_INTEGER, duration: LIVE_BACKLOG_PAUSE_MS },
  };
}

/**
 * Shadow runs on their own queue, with SHADOW_CONCURRENCY slots of their own (WorkerModule.forRoot
 * declares it, see configuredProcessor): `sample` every SHADOW_SAMPLE_MS, `judge` per drawn
 * evaluation at low priority, so the sampler goes before a backlog of judgments.
 */
@Injectable()
export class ShadowProcessor extends ConfiguredWorkerHost implements OnModuleDestroy {
  private readonly logger = new Logger(ShadowProcessor.name);
  private readonly jobs: JobTable;
  private refresh: NodeJS.Timeout | undefined;

  constructor(
    runner: ShadowRunner,
    liveBacklog: LiveBacklog,
    protected readonly metrics: Metrics,
    @InjectQueue(QUEUES.shadow) private readonly queue: Queue<JudgeShadowPayload | SampleShadowPayload>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
    // Pending judgments older than the sweep's threshold may have lost their job with Redis.
    this.jobs = new JobTable(QUEUES.shadow, [
      new SampleShadowJob(runner, 2 * config.workerSweepMs),
      new JudgeShadowJob(runner, liveBacklog, queue),
    ]);
  }

  /** Like the maintenance schedules: upserted by every worker at start and again every sweep interval. */
  override onApplicationBootstrap(): void {
    super.onApplicationBootstrap();
    const upsert = () =>
      this.queue
        .upsertJobScheduler(
          SAMPLE_SHADOW_JOB.schedulerId,
          { every: this.config.shadow.sampleMs },
          { name: SAMPLE_SHADOW_JOB.name, data: {}, opts: SAMPLE_SHADOW_JOB.options },
        )
        .catch((error: unknown) => this.logger.warn({ err: error }, 'could not refresh the shadow schedule'));
    void upsert();
    this.refresh = setInterval(() => void upsert(), this.config.workerSweepMs);
    this.refresh.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.refresh);
  }

  process(job: ShadowJob, token?: string): Promise<unknown> {
    return this.jobs.run(job, token);
  }
}
