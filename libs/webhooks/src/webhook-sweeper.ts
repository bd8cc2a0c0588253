import { Injectable } from '@nestjs/common';
import { WebhookRepository } from '@app/persistence';
import { WebhookQueue } from './webhook-queue.js';

/** Puts webhook work whose job never reached a worker back on the queue (run by the maintenance sweep). */
@Injectable()
export class WebhookSweeper {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly queue: WebhookQueue,
  ) {}

  /**
   * Work recorded while Redis was away, or whose job Redis lost (it keeps nothing on disk): events
   * never judged, and pending deliveries long past their next attempt. Job ids keep either from
   * running twice. Returns how many of each were looked at.
   */
  async sweep(olderThanMs: number): Promise<{ events: number; deliveries: number }> {
    const ids = await this.webhooks.stuckEvents(olderThanMs);
    for (const id of ids) await this.queue.requeueJudge(id);
    const deliveries = await this.webhooks.overdueDeliveries(olderThanMs);
    for (const { id, round } of deliveries) await this.queue.requeueDeliver(id, round);
    return { events: ids.length, deliveries: deliveries.length };
  }
}
