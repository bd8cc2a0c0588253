import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { QUEUES } from '@app/jobs';

/** How long one reading of the live queues stands: one Redis round trip per queue per period. */
const READ_EVERY_MS = 500;

/**
 * Whether live work is waiting: jobs in the wait lists of the inbound (`webhooks`) and simulation
 * queues. Shadow judgments stand down while it is, so they never delay inbound events or
 * simulations; they use the capacity live work leaves (docs/shadow-runs.md).
 */
@Injectable()
export class LiveBacklog {
  private reading: { at: number; busy: Promise<boolean> } | undefined;

  constructor(
    @InjectQueue(QUEUES.webhooks) private readonly webhooks: Queue,
    @InjectQueue(QUEUES.simulations) private readonly simulations: Queue,
  ) {}

  busy(now = Date.now()): Promise<boolean> {
    if (!this.reading || now - this.reading.at >= READ_EVERY_MS) {
      const busy = Promise.all([this.webhooks.getWaitingCount(), this.simulations.getWaitingCount()]).then(
        ([inbound, simulations]) => inbound + simulations > 0,
      );
      // A failed reading is not kept: the next call reads again.
      busy.catch(() => {
        if (this.reading?.busy === busy) this.reading = undefined;
      });
      this.reading = { at: now, busy };
    }
    return this.reading.busy;
  }
}
