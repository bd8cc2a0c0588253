import { Module } from '@nestjs/common';
import { CacheInvalidation } from './cache-invalidation.service.js';

/**
 * The cross-process cache protocol: one CacheInvalidation per app (imported once, by
 * PersistenceModule, whose read-through caches register with it). Needs the global APP_CONFIG.
 */
@Module({
  providers: [CacheInvalidation],
  exports: [CacheInvalidation],
})
export class CacheModule {}
