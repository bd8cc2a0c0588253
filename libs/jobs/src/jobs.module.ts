import { BullModule } from '@nestjs/bullmq';
import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { QueueErrorLogger } from './queue-error-logger.js';
import { QueueMetrics } from './queue-metrics.js';
import { ALL_QUEUES } from './queues.js';

/** BullMQ on REDIS_URL, every key under REDIS_PREFIX, and every queue registered, for API and worker alike. */
@Module({})
export class JobsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: JobsModule,
      global: true,
      imports: [
        // BullMQ blocks on Redis, so its connections retry forever rather than fail a command.
        BullModule.forRoot({
          prefix: config.redisPrefix,
          connection: { url: config.redisUrl, maxRetriesPerRequest: null },
        }),
        BullModule.registerQueue(...ALL_QUEUES.map((name) => ({ name }))),
      ],
      providers: [QueueErrorLogger, QueueMetrics],
      exports: [BullModule],
    };
  }
}
