export { PersistenceModule } from './persistence.module.js';
export { dataSourceOptions, ENTITIES, MIGRATIONS } from './data-source-options.js';
export { RedisClient } from './redis.provider.js';
export { LiveVersionCache, type LiveVersionLookup } from './cache/live-version.cache.js';
export { PackVersionLookup } from './cache/pack-version.lookup.js';
export { AuditBaselineCache } from './cache/audit-baseline.cache.js';
export { ApiKeyLookup } from './cache/api-key.lookup.js';
export { EndpointLookup, type WebhookEndpointRow } from './cache/endpoint.lookup.js';
export { AccessTokenLookup, type ActiveAccessToken } from './cache/access-token.lookup.js';
export { CalibrationMapCache, type VersionCalibration } from './cache/calibration-map.cache.js';
export { UserEntity } from './entities/user.entity.js';
export { SessionEntity } from './entities/session.entity.js';
export { ApiKeyEntity } from './entities/api-key.entity.js';
export { UserRepository } from './repositories/user.repository.js';
export { SessionRepository } from './repositories/session.repository.js';
export { ApiKeyRepository, type NewApiKey } from './repositories/api-key.repository.js';
export { ReadinessService, type Readiness } from './readiness.service.js';
export { CursorCodec, SignedCursor, ValueCursorCodec, type KeysetPosition } from './cursor.js';
export { PackEntity } from './entities/pack.entity.js';
export { PackVersionEntity } from './entities/pack-version.entity.js';
export { EvaluationEntity } from './entities/evaluation.entity.js';
export {
  PackRepository,
  type PackRecord,
  type PackListRow,
  type PackVersionRow,
} from './repositories/pack.repository.js';
export { type NewEvaluation } from './repositories/evaluation-rows.js';
export {
  EvaluationRepository,
  type EvaluationFilter,
  type EvaluationOrder,
  type EvaluationPage,
  type ReviewFilter,
  type ReviewQueue,
} from './repositories/evaluation.repository.js';
export { PreparedSql, type StatementResult } from './statements/prepared-sql.js';
export * as idempotencyStatements from './statements/idempotency.statements.js';
export { LabelEntity } from './entities/label.entity.js';
export {
  LabelRepository,
  type ExportedLabel,
  type LabelExportFilter,
  type NewLabel,
  type LabeledResult,
} from './repositories/label.repository.js';
export { StatsRepository, type DailyStatsRow } from './repositories/stats.repository.js';
export type { DailyPackCostRow } from './statements/stats.statements.js';
export { QualityRepository } from './repositories/quality.repository.js';
export type { LabeledDrawRow } from './statements/quality.statements.js';
export { DatasetEntity, DatasetTicketEntity } from './entities/dataset.entity.js';
export { SimulationEntity, type SimulationStatus } from './entities/simulation.entity.js';
export { DatasetRepository, type AppendResult } from './repositories/dataset.repository.js';
export {
  SimulationRepository,
  type SimulationRow,
  type NewSimulation,
  type TicketJobState,
  type ComparedTicket,
  type FinishedSimulation,
} from './repositories/simulation.repository.js';
export {
  WebhookRepository,
  type ClaimedDelivery,
  type InboundEventRow,
  type DeliveryRow,
  type DeliveryStatus,
  type DeliveryType,
} from './repositories/webhook.repository.js';
export {
  OAuthClientEntity,
  OAuthGrantEntity,
  OAuthCodeEntity,
  OAuthTokenEntity,
  OAuthApprovedHostEntity,
} from './entities/oauth.entity.js';
export {
  OAuthRepository,
  type NewOAuthClient,
  type NewOAuthGrant,
  type NewOAuthCode,
  type NewOAuthToken,
  type DocumentClient,
  type ApprovalRecord,
  type Redemption,
  type ConnectedClientRow,
} from './repositories/oauth.repository.js';
export { isTransientError, retryTransient } from './transient-errors.js';
export {
  CalibrationMapRepository,
  type CalibrationFitRow,
  type VersionQuestion,
} from './repositories/calibration-map.repository.js';
export {
  ShadowRepository,
  type ActiveShadowRun,
  type ShadowReportRows,
  type ShadowRunRow,
} from './repositories/shadow.repository.js';
export {
  AlertRepository,
  type AlertRow,
  type CheckedPackRow,
  type CheckWindows,
} from './repositories/alert.repository.js';
