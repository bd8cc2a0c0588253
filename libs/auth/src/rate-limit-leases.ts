import { RateLimiterRes } from 'rate-limiter-flexible';

/**
 * The two calls of a rate-limiter-flexible limiter that leases use. The store must refuse a consume
 * that would pass the limit without counting it (createCappedRedisLimiter), so that points given
 * back are never lost in a count inflated by refusals.
 */
export interface PointStore {
  consume(key: string, points: number): Promise<RateLimiterRes>;
  reward(key: string, points: number): Promise<RateLimiterRes>;
}

export interface LeaseOptions {
  /** The store's limit per window. */
  limit: number;
  /** Largest block taken from the store at once. */
  maxBlock: number;
  /** A block is at most this fraction of what the store has left, so blocks shrink to 1 near the limit. */
  remainingDivisor: number;
  /** How long a block may be spent; its unspent points go back within twice this, so an idle process holds no budget. */
  ttlMs: number;
  now?: () => number;
  /** Told when giving points back failed (they stay counted: the key loses them for this window). */
  onReturnFailed?: (error: unknown) => void;
}

/** One admitted request: what the key has left, as this process sees it, and when the window resets. */
export interface Admission {
  remaining: number;
  msBeforeNext: number;
}

interface KeyLease {
  key: string;
  /** Points taken from the store and not spent yet. */
  tokens: number;
  /** Size of the next block; doubles while blocks run out before they expire, drops to what was used. */
  size: number;
  /** What the store had left after the last block (excluding `tokens`). */
  storeRemaining: number;
  resetAt: number;
  expiresAt: number;
  pending?: Promise<unknown>;
}

/**
 * Takes a busy key's budget from the store in blocks instead of one round trip per request. A key
 * seen once a second or less stays at blocks of 1, exactly as without leases; a key with a steady
 * stream of requests grows its block (up to `maxBlock`, and never above what the store has left
 * divided by `remainingDivisor`), so near the limit every request is counted in the store again.
 * Points are counted in the store when taken, so all processes together never admit more than the
 * limit; a block's unspent points go back within 2 x `ttlMs` (the sweep's period plus the lease's
 * life) and can then be spent by any process (a killed process's are lost, which can only make a
 * key's budget smaller).
 */
export class RateLimitLeases {
  private readonly leases = new Map<string, KeyLease>();
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly store: PointStore,
    private readonly options: LeaseOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.sweep(), options.ttlMs);
    this.sweeper.unref();
  }

  /** Admits one request or rejects with the store's RateLimiterRes (or its error). */
  async consume(key: string): Promise<Admission> {
    for (;;) {
      const now = this.now();
      const lease = this.leases.get(key) ?? this.open(key);
      if (lease.tokens > 0 && now < lease.expiresAt && now < lease.resetAt) {
        lease.tokens -= 1;
        return { remaining: lease.storeRemaining + lease.tokens, msBeforeNext: lease.resetAt - now };
      }
      if (lease.pending) {
        // One block at a time per key; whoever waited takes from it (or asks for the next one).
        await lease.pending.catch(() => undefined);
        continue;
      }
      this.resize(lease, now);
      if (lease.size === 1) return this.takeOne(lease);
      const block = this.takeBlock(lease, lease.size);
      lease.pending = block;
      try {
        return await block;
      } finally {
        lease.pending = undefined;
      }
    }
  }

  /** Gives every unspent point back (at shutdown). */
  async release(): Promise<void> {
    clearInterval(this.sweeper);
    const now = this.now();
    await Promise.all([...this.leases.values()].map((lease) => this.giveBack(lease, now)));
    this.leases.clear();
  }

  private open(key: string): KeyLease {
    const lease: KeyLease = { key, tokens: 0, size: 1, storeRemaining: 0, resetAt: 0, expiresAt: 0 };
    this.leases.set(key, lease);
    return lease;
  }

  /** Called when a lease is empty or expired: grow after a block ran out in time, else shrink to its use. */
  private resize(lease: KeyLease, now: number): void {
    if (lease.expiresAt === 0) return;
    if (lease.tokens === 0 && now < lease.expiresAt) lease.size *= 2;
    else lease.size = Math.max(1, lease.size - lease.tokens);
    if (lease.tokens > 0) void this.giveBack(lease, now);
    lease.size = Math.max(
      1,
      Math.min(
        lease.size,
        this.options.maxBlock,
        Math.floor(lease.storeRemaining / this.options.remainingDivisor),
      ),
    );
  }

  /** One request, one point: many may be in flight for the same key, as without leases. */
  private async takeOne(lease: KeyLease): Promise<Admission> {
    let res: RateLimiterRes;
    try {
      res = await this.store.consume(lease.key, 1);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) lease.storeRemaining = 0;
      throw rejection;
    }
    this.renew(lease, res);
    return { remaining: res.remainingPoints + lease.tokens, msBeforeNext: res.msBeforeNext };
  }

  /**
   * A block of `size` points, one of them for this request. When other processes took budget since
   * this one last looked, the store refuses the block without counting it; its answer tells how much
   * is left, and this request is then counted alone (later blocks are sized from what is left, so
   * near the limit this process does not hold what others could use).
   */
  private async takeBlock(lease: KeyLease, size: number): Promise<Admission> {
    let res: RateLimiterRes;
    try {
      res = await this.store.consume(lease.key, size);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const left = this.options.limit - (rejection.consumedPoints - size);
      lease.storeRemaining = Math.max(0, left);
      lease.size = 1;
      if (left <= 0) throw rejection;
      return this.takeOne(lease);
    }
    lease.tokens = size - 1;
    this.renew(lease, res);
    return { remaining: res.remainingPoints + lease.tokens, msBeforeNext: res.msBeforeNext };
  }

  private renew(lease: KeyLease, res: RateLimiterRes): void {
    const now = this.now();
    lease.storeRemaining = res.remainingPoints;
    lease.resetAt = now + res.msBeforeNext;
    lease.expiresAt = now + this.options.ttlMs;
  }

  /** Unspent points go back to the store, unless its window has reset since (they were never counted there). */
  private async giveBack(lease: KeyLease, now: number): Promise<void> {
    const tokens = lease.tokens;
    lease.tokens = 0;
    if (tokens <= 0 || now >= lease.resetAt) return;
    lease.storeRemaining += tokens;
    await this.store
      .reward(lease.key, tokens)
      .catch((error: unknown) => this.options.onReturnFailed?.(error));
  }

  /** Expired leases give their points back and are forgotten, so the map holds only busy keys. */
  private sweep(): void {
    const now = this.now();
    for (const [key, lease] of this.leases) {
      if (lease.pending || now < lease.expiresAt) continue;
      void this.giveBack(lease, now);
      this.leases.delete(key);
    }
  }
}
