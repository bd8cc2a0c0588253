import { Module } from '@nestjs/common';
import { WebhooksModule } from '@app/webhooks';
import { AlertMonitor } from './alert-monitor.js';
import { AlertService } from './alert.service.js';

/** WebhooksModule: an opened alert's delivery goes through the completion deliveries' queue. */
@Module({
  imports: [WebhooksModule],
  providers: [AlertService, AlertMonitor],
  exports: [AlertService, AlertMonitor],
})
export class AlertsModule {}
