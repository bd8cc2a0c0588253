import { Module } from '@nestjs/common';
import { JudgingModule } from '@app/judging';
import { MetricsModule } from '@app/metrics';
import { CompletionSender } from './completion-sender.js';
import { DeliveryClient } from './delivery-client.js';
import { EndpointTester } from './endpoint-tester.js';
import { InboundJudge } from './inbound-judge.js';
import { WebhookQueue } from './webhook-queue.js';
import { WebhookSweeper } from './webhook-sweeper.js';
import { WebhookService } from './webhook.service.js';

@Module({
  imports: [JudgingModule, MetricsModule],
  providers: [
    WebhookService,
    InboundJudge,
    CompletionSender,
    WebhookSweeper,
    WebhookQueue,
    DeliveryClient,
    EndpointTester,
  ],
  exports: [WebhookService, EndpointTester, InboundJudge, CompletionSender, WebhookSweeper, WebhookQueue],
})
export class WebhooksModule {}
