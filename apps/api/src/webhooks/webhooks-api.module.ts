import { Module } from '@nestjs/common';
import { WebhooksModule } from '@app/webhooks';
import { WebhooksController } from './webhooks.controller.js';

@Module({ imports: [WebhooksModule], controllers: [WebhooksController] })
export class WebhooksApiModule {}
