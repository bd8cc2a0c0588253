import { Global, Module } from '@nestjs/common';
import { DeliveryClient } from './delivery-client.js';
import { WebhookQueue } from './webhook-queue.js';
import { WebhookRunner } from './webhook-runner.js';
import { WebhookService } from './webhook.service.js';

const PROVIDERS = [WebhookService, WebhookRunner, WebhookQueue, DeliveryClient];

/** Needs JobsModule and JudgingModule from the app that imports it. */
@Global()
@Module({ providers: PROVIDERS, exports: PROVIDERS })
export class WebhooksModule {}
