interface Waiting {
  received: number;
  expected?: number;
  settle: (allAnswered: boolean) => void;
}

/**
 * Counts the acknowledgements of published invalidations. A process can answer before PUBLISH has
 * told the publisher how many processes received the message, so counting starts before publishing.
 */
export class InvalidationAcks {
  private readonly waiting = new Map<string, Waiting>();

  /**
   * Starts counting `id`'s acknowledgements. The promise settles true once as many arrived as
   * `expect` announces, or false when `timeoutMs` passes first or `cancelAll` is called.
   */
  open(id: string, timeoutMs: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => settle(false), timeoutMs).unref();
      const settle = (allAnswered: boolean) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(allAnswered);
      };
      this.waiting.set(id, { received: 0, settle });
    });
  }

  /** How many processes received `id`, as PUBLISH answered. */
  expect(id: string, receivers: number): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    waiting.expected = receivers;
    this.check(waiting);
  }

  /** One process has applied `id`. Acknowledgements of other processes' invalidations are ignored. */
  acknowledge(id: string): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    waiting.received += 1;
    this.check(waiting);
  }

  /** Stops waiting for `id` (its publish failed). */
  forget(id: string): void {
    this.waiting.get(id)?.settle(false);
  }

  cancelAll(): void {
    for (const waiting of [...this.waiting.values()]) waiting.settle(false);
  }

  get size(): number {
    return this.waiting.size;
  }

  private check(waiting: Waiting): void {
    if (waiting.expected !== undefined && waiting.received >= waiting.expected) waiting.settle(true);
  }
}
