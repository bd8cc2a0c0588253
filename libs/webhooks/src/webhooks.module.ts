import { Module } from '@nestjs/common';
import { JudgingModule } from '@app/judging';
import { MetricsModule } from '@app/metrics';
import { DeliveryClient } from './delivery-client.js';
import { WebhookQueue } from './webhook-queue.js';
import { WebhookRunner } from './webhook-runner.js';
import { WebhookService } from './webhook.service.js';

@Module({
  imports: [JudgingModule, MetricsModule],
  providers: [WebhookService, WebhookRunner, WebhookQueue, DeliveryClient],
  exports: [WebhookService, WebhookRunner, WebhookQueue],
})
export class WebhooksModule {}
