import { BullModule } from '@nestjs/bullmq';
import { Module, type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { ConfigModule, type AppConfig } from '@app/config';
import { QUEUES } from '@app/jobs';
import { PersistenceModule } from '@app/persistence';
import { MaintenanceProcessor } from './maintenance/maintenance.processor.js';

/** The worker: the same libs as the API, booted without HTTP; processors are added per feature. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({
          pinoHttp: { level: config.logLevel, customProps: () => ({ app: 'worker' }) },
        }),
        PersistenceModule.forRoot({ runMigrations: false }),
        // BullMQ workers block on Redis, so their connection must retry forever rather than fail a command.
        BullModule.forRoot({
          prefix: config.redisPrefix,
          connection: { url: config.redisUrl, maxRetriesPerRequest: null },
        }),
        BullModule.registerQueue({ name: QUEUES.maintenance }),
      ],
      providers: [MaintenanceProcessor],
    };
  }
}
