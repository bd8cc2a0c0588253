import { BullModule } from '@nestjs/bullmq';
import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { MetricsModule } from '@app/metrics';
import { queueTelemetry } from '@app/telemetry';
import { ListenedQueue } from './listened-queue.js';
import { QueueErrorLogger } from './queue-error-logger.js';
import { QueueMetrics } from './queue-metrics.js';
import { ALL_QUEUES } from './queues.js';
import { RedisRequirementsCheck } from './redis-requirements-check.js';

/**
 * BullMQ on REDIS_URL, every key under REDIS_PREFIX, and every queue registered, for API and worker
 * alike; Redis is checked against BullMQ's requirements at boot (RedisRequirementsCheck).
 */
@Module({})
export class JobsModule {
  static forRoot(config: AppConfig): DynamicModule {
    // @nestjs/bullmq's documented extension point: every queue it registers is a ListenedQueue.
    BullModule.queueClass = ListenedQueue;
    return {
      module: JobsModule,
      global: true,
      imports: [
        MetricsModule,
        // BullMQ blocks on Redis, so its connections retry forever rather than fail a command.
        // Workers are registered by RedisRequirementsCheck, so none starts on a Redis it refuses.
        BullModule.forRoot({
          prefix: config.redisPrefix,
          connection: { url: config.redisUrl, maxRetriesPerRequest: null },
          // With tracing on, a job carries its producer's trace to the worker (docs/operations.md).
          telemetry: queueTelemetry(config.telemetry),
          extraOptions: { manualRegistration: true },
        }),
        BullModule.registerQueue(...ALL_QUEUES.map((name) => ({ name }))),
      ],
      providers: [QueueErrorLogger, QueueMetrics, RedisRequirementsCheck],
      exports: [BullModule],
    };
  }
}
