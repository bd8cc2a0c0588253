import { Queue } from 'bullmq';

/**
 * A BullMQ queue with an `error` listener from its construction. Without one, BullMQ prints every
 * connection error to the console with its stack (an API started while Redis is away printed one
 * per queue and reconnect until QueueErrorLogger attached its listener at module init). Those
 * early errors are dropped here; QueueErrorLogger logs the same errors as warnings from then on
 * (one per queue every 10 s), so a Redis that stays away is still reported.
 */
export class ListenedQueue extends Queue {
  constructor(...args: ConstructorParameters<typeof Queue>) {
    super(...args);
    this.on('error', () => undefined);
  }
}
