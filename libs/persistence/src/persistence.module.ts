import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CacheModule } from '@app/cache';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AccessTokenLookup } from './cache/access-token.lookup.js';
import { AuditBaselineCache } from './cache/audit-baseline.cache.js';
import { CalibrationMapCache } from './cache/calibration-map.cache.js';
import { ApiKeyLookup } from './cache/api-key.lookup.js';
import { EndpointLookup } from './cache/endpoint.lookup.js';
import { LiveVersionCache } from './cache/live-version.cache.js';
import { PackVersionLookup } from './cache/pack-version.lookup.js';
import { PreparedSql } from './statements/prepared-sql.js';
import { EvaluationInserts } from './repositories/evaluation-inserts.js';
import { SimulationCompletions } from './repositories/simulation-completions.js';
import { dataSourceOptions } from './data-source-options.js';
import { ReadinessService } from './readiness.service.js';
import { RedisClient } from './redis.provider.js';
import { AlertRepository } from './repositories/alert.repository.js';
import { ApiKeyRepository } from './repositories/api-key.repository.js';
import { CalibrationMapRepository } from './repositories/calibration-map.repository.js';
import { DatasetRepository } from './repositories/dataset.repository.js';
import { EvaluationRepository } from './repositories/evaluation.repository.js';
import { LabelRepository } from './repositories/label.repository.js';
import { PackRepository } from './repositories/pack.repository.js';
import { SessionRepository } from './repositories/session.repository.js';
import { ShadowRepository } from './repositories/shadow.repository.js';
import { SimulationRepository } from './repositories/simulation.repository.js';
import { QualityRepository } from './repositories/quality.repository.js';
import { StatsRepository } from './repositories/stats.repository.js';
import { WebhookRepository } from './repositories/webhook.repository.js';
import { OAuthRepository } from './repositories/oauth.repository.js';
import { UserRepository } from './repositories/user.repository.js';
import { PoolClientErrors } from './pool-client-errors.js';

const REPOSITORIES = [
  UserRepository,
  SessionRepository,
  ApiKeyRepository,
  PackRepository,
  EvaluationRepository,
  LabelRepository,
  StatsRepository,
  QualityRepository,
  DatasetRepository,
  SimulationRepository,
  WebhookRepository,
  OAuthRepository,
  CalibrationMapRepository,
  ShadowRepository,
  AlertRepository,
];

/**
 * The hot-path read caches: each reads through its own loader and owns its invalidation, if any,
 * through CacheModule's one CacheInvalidation per app.
 */
const CACHES = [
  LiveVersionCache,
  PackVersionLookup,
  ApiKeyLookup,
  EndpointLookup,
  AccessTokenLookup,
  AuditBaselineCache,
  CalibrationMapCache,
];

export interface PersistenceOptions {
  /** Only the API applies migrations at start (when MIGRATE_ON_START allows); workers never do. */
  runMigrations: boolean;
}

@Global()
@Module({})
export class PersistenceModule {
  static forRoot(options: PersistenceOptions): DynamicModule {
    return {
      module: PersistenceModule,
      imports: [
        CacheModule,
        TerminusModule.forRoot({ logger: false }),
        TypeOrmModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(config.databaseUrl),
            migrationsRun: options.runMigrations && config.migrateOnStart,
            retryAttempts: 3,
            retryDelay: 1000,
          }),
        }),
      ],
      providers: [
        ...REPOSITORIES,
        ...CACHES,
        RedisClient,
        ReadinessService,
        PreparedSql,
        PoolClientErrors,
        EvaluationInserts,
        SimulationCompletions,
      ],
      exports: [...REPOSITORIES, ...CACHES, RedisClient, ReadinessService, PreparedSql],
    };
  }
}
