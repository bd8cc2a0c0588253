import type { InvalidatedCacheOptions } from '@app/cache';

/**
 * The hot-path caches' limits. Invalidations drop entries at once; the lifetime bounds the one case
 * they cannot cover: a write whose process cannot reach Redis while the other processes can.
 */
export const HOT_PATH_CACHE: InvalidatedCacheOptions = { ttlMs: 5_000, maxEntries: 10_000 };
