import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AuthenticationGuard, AuthModule } from '@app/auth';
import { ConfigModule, type AppConfig } from '@app/config';
import { JudgingModule } from '@app/judging';
import { PacksModule } from '@app/packs';
import { ReviewsModule } from '@app/reviews';
import { PersistenceModule } from '@app/persistence';
import { AccountModule } from './auth/account.module.js';
import { HealthModule } from './health/health.module.js';
import { JudgingApiModule } from './judging/judging-api.module.js';
import { ApiKeysModule } from './keys/api-keys.module.js';
import { loggerOptions } from './logger.js';
import { PacksApiModule } from './packs/packs.module.js';
import { ReviewsApiModule } from './reviews/reviews-api.module.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, extraModules: DynamicModule['imports'] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(loggerOptions(config)),
        PersistenceModule.forRoot({ runMigrations: true }),
        AuthModule,
        PacksModule,
        JudgingModule,
        ReviewsModule,
        AccountModule,
        ApiKeysModule,
        HealthModule,
        PacksApiModule,
        JudgingApiModule,
        ReviewsApiModule,
        ...extraModules,
      ],
      providers: [{ provide: APP_GUARD, useExisting: AuthenticationGuard }],
    };
  }
}
