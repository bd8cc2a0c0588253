import { Metrics } from '@app/metrics';
import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { JobTable, QUEUES } from '@app/jobs';
import {
  CompletionSender,
  DeliverJob,
  InboundJudge,
  JudgeEventJob,
  type DeliverPayload,
  type JudgeEventPayload,
} from '@app/webhooks';
import { ConfiguredWorkerHost } from '../configured-worker-host.js';

/**
 * Judges inbound events and sends their signed completions. The processor of QUEUES.webhooks
 * (declared by WorkerModule.forRoot, see configuredProcessor).
 */
@Injectable()
export class WebhookProcessor extends ConfiguredWorkerHost {
  private readonly jobs: JobTable;

  constructor(
    inbound: InboundJudge,
    completions: CompletionSender,
    protected readonly metrics: Metrics,
  ) {
    super();
    this.jobs = new JobTable(QUEUES.webhooks, [new JudgeEventJob(inbound), new DeliverJob(completions)]);
  }

  /** `token` lets the deliver job move itself to delayed while another attempt holds its delivery. */
  process(job: Job<JudgeEventPayload | DeliverPayload>, token?: string): Promise<unknown> {
    return this.jobs.run(job, token);
  }
}
