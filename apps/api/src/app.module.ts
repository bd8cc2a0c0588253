import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AuthenticationGuard, AuthModule } from '@app/auth';
import { ConfigModule, type AppConfig } from '@app/config';
import { JobsModule } from '@app/jobs';
import { MetricsModule } from '@app/metrics';
import { PersistenceModule } from '@app/persistence';
import { AccountModule } from './auth/account.module.js';
import { DatasetsApiModule } from './datasets/datasets-api.module.js';
import { HealthModule } from './health/health.module.js';
import { JudgingApiModule } from './judging/judging-api.module.js';
import { ApiKeysModule } from './keys/api-keys.module.js';
import { loggerOptions } from './logger.js';
import { McpModule } from './mcp/mcp.module.js';
import { OAuthApiModule } from './oauth/oauth-api.module.js';
import { PacksApiModule } from './packs/packs.module.js';
import { ReviewsApiModule } from './reviews/reviews-api.module.js';
import { SimulationsApiModule } from './simulations/simulations-api.module.js';
import { WebhooksApiModule } from './webhooks/webhooks-api.module.js';

/** AuthModule is here for the global guard; MetricsModule for GET /metrics, served by serveMetrics. */
@Module({})
export class AppModule {
  static forRoot(
    config: AppConfig,
    extraModules: DynamicModule['imports'] = [],
    logDestination?: DestinationStream,
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(loggerOptions(config, logDestination)),
        PersistenceModule.forRoot({ runMigrations: true }),
        JobsModule.forRoot(config),
        AuthModule,
        MetricsModule,
        AccountModule,
        ApiKeysModule,
        HealthModule,
        PacksApiModule,
        JudgingApiModule,
        ReviewsApiModule,
        DatasetsApiModule,
        SimulationsApiModule,
        WebhooksApiModule,
        OAuthApiModule,
        McpModule,
        ...extraModules,
      ],
      providers: [{ provide: APP_GUARD, useExisting: AuthenticationGuard }],
    };
  }
}
