import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AuthenticationGuard, AuthModule } from '@app/auth';
import { ConfigModule, type AppConfig } from '@app/config';
import { JobsModule } from '@app/jobs';
import { MetricsModule } from '@app/metrics';
import { PersistenceModule } from '@app/persistence';
import { AlertsApiModule } from './alerts/alerts-api.module.js';
import { AuthApiModule } from './auth/auth-api.module.js';
import { DatasetsApiModule } from './datasets/datasets-api.module.js';
import { EvaluationsApiModule } from './evaluations/evaluations-api.module.js';
import { HealthApiModule } from './health/health-api.module.js';
import { JudgingApiModule } from './judging/judging-api.module.js';
import { KeysApiModule } from './keys/keys-api.module.js';
import { loggerOptions } from './logger.js';
import { McpApiModule } from './mcp/mcp-api.module.js';
import { OAuthApiModule } from './oauth/oauth-api.module.js';
import { PacksApiModule } from './packs/packs-api.module.js';
import { PagesApiModule } from './pages/pages-api.module.js';
import { ReviewsApiModule } from './reviews/reviews-api.module.js';
import { ShadowApiModule } from './shadow/shadow-api.module.js';
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
        AuthApiModule,
        KeysApiModule,
        HealthApiModule,
        PacksApiModule,
        JudgingApiModule,
        EvaluationsApiModule,
        ReviewsApiModule,
        DatasetsApiModule,
        SimulationsApiModule,
        ShadowApiModule,
        WebhooksApiModule,
        OAuthApiModule,
        PagesApiModule,
        McpApiModule,
        AlertsApiModule,
        ...extraModules,
      ],
      providers: [{ provide: APP_GUARD, useExisting: AuthenticationGuard }],
    };
  }
}
