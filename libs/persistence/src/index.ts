export { PersistenceModule } from './persistence.module.js';
export { dataSourceOptions, ENTITIES, MIGRATIONS } from './data-source-options.js';
export { RedisClient } from './redis.provider.js';
export { LiveVersionCache, type LiveVersionLookup } from './cache/live-version.cache.js';
export { PackVersionLookup } from './cache/pack-version.lookup.js';
export {
  AuditBaselineCache,
  AUDIT_BASELINE_DECISIONS,
  AUDIT_BASELINE_TTL_MS,
} from './cache/audit-baseline.cache.js';
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
export {
  CursorCodec,
  SignedCursor,
  ValueCursorCodec,
  type KeysetPosition,
  type ValuedPosition,
} from './cursor.js';
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
  type ValuedPage,
  type CappedCount,
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
export type {
  AnswerCountRow,
  AuditedPackRow,
  LabeledDrawRow,
  VersionCountsRow,
} from './statements/quality.statements.js';
export { DatasetEntity, DatasetTicketEntity } from './entities/dataset.entity.js';
export { SimulationEntity, type SimulationStatus } from './entities/simulation.entity.js';
export {
  DatasetRepository,
  type AppendDecision,
  type AppendResult,
  type DeleteTicketResult,
  type NewDatasetTicket,
} from './repositories/dataset.repository.js';
export {
  SimulationRepository,
  type SimulationResultRow,
  type SimulationRow,
  type NewSimulation,
  type TicketJobState,
  type ComparedTicket,
  type ExpectedAnswerRow,
  type FinishedSimulation,
} from './repositories/simulation.repository.js';
export {
  WebhookRepository,
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
export { CalibrationMapEntity } from './entities/calibration-map.entity.js';
export {
  CalibrationMapRepository,
  type CalibrationFitRow,
  type CalibrationLabelRow,
  type RefitCandidateRow,
  type VersionQuestion,
} from './repositories/calibration-map.repository.js';
export { ShadowJudgmentEntity, ShadowRunEntity } from './entities/shadow-run.entity.js';
export {
  FLIP_EXAMPLES,
  ShadowRepository,
  type ActiveShadowRun,
  type NewShadowRun,
  type PendingShadowJudgment,
  type RecordedShadowJudgment,
  type ShadowJobState,
  type ShadowLabelRow,
  type ShadowReportRows,
  type ShadowRunRow,
} from './repositories/shadow.repository.js';
export { PackAlertRulesEntity, QualityAlertEntity } from './entities/quality-alert.entity.js';
export {
  AlertRepository,
  type AlertRow,
  type CheckedPackRow,
  type CheckWindows,
  type NewAlert,
} from './repositories/alert.repository.js';
