interface Entry<V> {
  value: V;
  tag: string;
  expiresAt: number;
}

export interface InvalidatedCacheOptions {
  /** A backstop only: invalidations drop entries at once. */
  ttlMs: number;
  maxEntries: number;
}

/**
 * A small in-process read cache whose entries any process can drop at once (through
 * CacheInvalidation). It serves entries only while invalidations can reach it, and a read that raced
 * an invalidation is not kept, so a stale row never outlives the write that replaced it.
 */
export class InvalidatedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Bumped by every invalidation: a load that started before it may hold the replaced row. */
  private generation = 0;

  constructor(
    readonly name: string,
    private readonly options: InvalidatedCacheOptions,
    private readonly isLive: () => boolean,
  ) {}

  /**
   * The cached value for `key`, or the loaded one. A loaded value is kept only when `keep` approves
   * it, under the tag that invalidations name (`tagOf` the value; the key itself by default).
   */
  async get(
    key: string,
    load: () => Promise<V>,
    {
      tagOf = () => key,
      keep = () => true,
    }: { tagOf?: (value: V) => string; keep?: (value: V) => boolean } = {},
  ): Promise<V> {
    if (!this.isLive()) return load();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > Date.now()) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation && this.isLive() && keep(value)) this.set(key, tagOf(value), value);
    return value;
  }

  /** Drops the entries stored under `tag`, or every entry without one. */
  drop(tag?: string): void {
    this.generation += 1;
    if (tag === undefined) return this.entries.clear();
    for (const [key, entry] of this.entries) if (entry.tag === tag) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private set(key: string, tag: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, { value, tag, expiresAt: Date.now() + this.options.ttlMs });
  }
}
