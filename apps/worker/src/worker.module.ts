import { Module, type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AlertsModule } from '@app/alerts';
import { ConfigModule, logOptions, type AppConfig } from '@app/config';
import { JobsModule, QUEUES } from '@app/jobs';
import { JudgingModule } from '@app/judging';
import { MetricsModule } from '@app/metrics';
import { PersistenceModule } from '@app/persistence';
import { ReviewsModule } from '@app/reviews';
import { ShadowModule } from '@app/shadow';
import { SimulationsModule } from '@app/simulations';
import { WebhooksModule } from '@app/webhooks';
import { configuredProcessor } from './configured-worker-host.js';
import { Cleanup } from './maintenance/cleanup.js';
import { MaintenanceProcessor } from './maintenance/maintenance.processor.js';
import { ShadowProcessor, shadowWorkerOptions } from './shadow/shadow.processor.js';
import { SimulationProcessor, simulationWorkerOptions } from './simulations/simulation.processor.js';
import { WebhookProcessor } from './webhooks/webhook.processor.js';

/** The worker: the same libs as the API, booted without HTTP, with one processor per queue. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({ pinoHttp: logOptions(config, 'worker') }),
        PersistenceModule.forRoot({ runMigrations: false }),
        JobsModule.forRoot(config),
        MetricsModule,
        JudgingModule,
        ReviewsModule,
        SimulationsModule,
        ShadowModule,
        WebhooksModule,
        AlertsModule,
      ],
      providers: [
        Cleanup,
        MaintenanceProcessor,
        // Their Workers take WORKER_CONCURRENCY, WORKER_LOCK_MS and WORKER_NAME when they are built
        // (the simulations queue takes twice WORKER_CONCURRENCY jobs: simulationWorkerOptions).
        configuredProcessor(SimulationProcessor, QUEUES.simulations, config, simulationWorkerOptions(config)),
        configuredProcessor(WebhookProcessor, QUEUES.webhooks, config),
        configuredProcessor(ShadowProcessor, QUEUES.shadow, config, shadowWorkerOptions(config)),
      ],
    };
  }
}
