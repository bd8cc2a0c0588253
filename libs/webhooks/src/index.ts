export { WebhooksModule } from './webhooks.module.js';
export { WebhookService, DELIVERIES_PAGE_SIZE, type InboundRequest } from './webhook.service.js';
export { InboundJudge } from './inbound-judge.js';
export { CompletionSender, type DeliveryOutcome } from './completion-sender.js';
export { WebhookSweeper } from './webhook-sweeper.js';
export { WebhookQueue } from './webhook-queue.js';
export { DeliveryClient, DELIVERY_TIMEOUT_MS } from './delivery-client.js';
export { isBlockedAddress } from './address-guard.js';
export { toDeliveryView, type DeliveryView } from './webhook.views.js';
