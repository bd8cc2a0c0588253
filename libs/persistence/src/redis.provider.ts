import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@app/config';

/** The shared Redis connection (rate limits, throttles). BullMQ opens its own connections. */
@Injectable()
export class RedisClient extends Redis implements OnApplicationShutdown {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // Fail fast while Redis is away instead of queueing commands forever; callers degrade.
    super(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    this.on('error', () => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    this.disconnect();
    return Promise.resolve();
  }
}
