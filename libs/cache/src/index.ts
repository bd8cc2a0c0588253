export { CacheModule } from './cache.module.js';
export { CacheInvalidation, ACK_TIMEOUT_MS } from './cache-invalidation.service.js';
export { InvalidatedCache, type InvalidatedCacheOptions } from './invalidated-cache.js';
