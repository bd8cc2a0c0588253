import type { DataSourceOptions } from 'typeorm';
import { ApiKeyEntity } from './entities/api-key.entity.js';
import { SessionEntity } from './entities/session.entity.js';
import { UserEntity } from './entities/user.entity.js';
import { DatasetEntity, DatasetTicketEntity } from './entities/dataset.entity.js';
import { EvaluationEntity } from './entities/evaluation.entity.js';
import { LabelEntity } from './entities/label.entity.js';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity.js';
import { PackVersionEntity } from './entities/pack-version.entity.js';
import { PackEntity } from './entities/pack.entity.js';
import { SimulationEntity } from './entities/simulation.entity.js';
import { WebhookEndpointEntity } from './entities/webhook-endpoint.entity.js';
import { InboundEventEntity } from './entities/inbound-event.entity.js';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity.js';
import {
  EvaluationDailySourceStatsEntity,
  EvaluationDailyVersionStatsEntity,
  EvaluationDailyAnswerEntity,
  EvaluationProbabilityBinEntity,
  EvaluationReviewBacklogEntity,
  EvaluationDailyPackStatsEntity,
  EvaluationDailyStatsEntity,
} from './entities/evaluation-daily-stats.entity.js';
import { Foundation1763769600000 } from './migrations/1763769600000-foundation.js';
import { PacksAndEvaluations1763856000000 } from './migrations/1763856000000-packs-and-evaluations.js';
import { ReviewsLabelsStats1763942400000 } from './migrations/1763942400000-reviews-labels-stats.js';
import { DatasetsAndSimulations1764028800000 } from './migrations/1764028800000-datasets-and-simulations.js';
import { Webhooks1764115200000 } from './migrations/1764115200000-webhooks.js';
import { SimulationProgressFromEvaluations1764201600000 } from './migrations/1764201600000-simulation-progress-from-evaluations.js';
import { DeliveryRounds1764288000000 } from './migrations/1764288000000-delivery-rounds.js';
import { OAuth1764374400000 } from './migrations/1764374400000-oauth.js';
import { DeliveryClaims1764460800000 } from './migrations/1764460800000-delivery-claims.js';
import { SimulationCompletions1764547200000 } from './migrations/1764547200000-simulation-completions.js';
import { SelectedProbabilities1764633600000 } from './migrations/1764633600000-selected-probabilities.js';
import { DeliveryClaimOwners1764720000000 } from './migrations/1764720000000-delivery-claim-owners.js';
import { OAuthClientAuthorizedAt1764723600000 } from './migrations/1764723600000-oauth-client-authorized-at.js';
import { SourceStats1795750200000 } from './migrations/1795750200000-source-stats.js';
import { SimulationNames1795750239595 } from './migrations/1795750239595-simulation-names.js';
import { DatasetTicketKeysAndExpectedAnswers1795750324599 } from './migrations/1795750324599-dataset-ticket-keys-and-expected-answers.js';
import { EvaluationSearch1795750411000 } from './migrations/1795750411000-evaluation-search.js';
import { AuditSampling1795750500000 } from './migrations/1795750500000-audit-sampling.js';
import { QualityCounters1795750800000 } from './migrations/1795750800000-quality-counters.js';
import { AuditUncertainty1795750900000 } from './migrations/1795750900000-audit-uncertainty.js';
import { ShadowRuns1795751000000 } from './migrations/1795751000000-shadow-runs.js';
import { ShadowJudgmentEntity, ShadowRunEntity } from './entities/shadow-run.entity.js';
import { EvaluationCost1795751100000 } from './migrations/1795751100000-evaluation-cost.js';
import { CalibrationMaps1795750600000 } from './migrations/1795750600000-calibration-maps.js';
import { CalibrationMapEntity } from './entities/calibration-map.entity.js';
import { PackAlertRulesEntity, QualityAlertEntity } from './entities/quality-alert.entity.js';
import { QualityAlerts1795751200000 } from './migrations/1795751200000-quality-alerts.js';
import { OAuthApprovedHosts1795751300000 } from './migrations/1795751300000-oauth-approved-hosts.js';
import { DashboardCounters1795751400000 } from './migrations/1795751400000-dashboard-counters.js';
import { LabelEvaluationFacts1795751500000 } from './migrations/1795751500000-label-evaluation-facts.js';
import {
  OAuthApprovedHostEntity,
  OAuthClientEntity,
  OAuthCodeEntity,
  OAuthGrantEntity,
  OAuthTokenEntity,
} from './entities/oauth.entity.js';

/** An entity for every table the migrations create (checked against the migrated schema by a test). */
export const ENTITIES = [
  UserEntity,
  SessionEntity,
  ApiKeyEntity,
  PackEntity,
  PackVersionEntity,
  EvaluationEntity,
  IdempotencyKeyEntity,
  LabelEntity,
  DatasetEntity,
  DatasetTicketEntity,
  SimulationEntity,
  OAuthClientEntity,
  OAuthGrantEntity,
  OAuthCodeEntity,
  OAuthTokenEntity,
  OAuthApprovedHostEntity,
  WebhookEndpointEntity,
  InboundEventEntity,
  WebhookDeliveryEntity,
  EvaluationDailyStatsEntity,
  EvaluationDailySourceStatsEntity,
  EvaluationDailyVersionStatsEntity,
  EvaluationDailyAnswerEntity,
  EvaluationProbabilityBinEntity,
  EvaluationReviewBacklogEntity,
  EvaluationDailyPackStatsEntity,
  CalibrationMapEntity,
  ShadowRunEntity,
  ShadowJudgmentEntity,
  PackAlertRulesEntity,
  QualityAlertEntity,
];
/** Every migration, oldest first. Applied by `npm run migrate`, at API start, and by the test setup. */
export const MIGRATIONS = [
  Foundation1763769600000,
  PacksAndEvaluations1763856000000,
  ReviewsLabelsStats1763942400000,
  DatasetsAndSimulations1764028800000,
  Webhooks1764115200000,
  SimulationProgressFromEvaluations1764201600000,
  DeliveryRounds1764288000000,
  OAuth1764374400000,
  DeliveryClaims1764460800000,
  SimulationCompletions1764547200000,
  SelectedProbabilities1764633600000,
  DeliveryClaimOwners1764720000000,
  OAuthClientAuthorizedAt1764723600000,
  SourceStats1795750200000,
  SimulationNames1795750239595,
  DatasetTicketKeysAndExpectedAnswers1795750324599,
  EvaluationSearch1795750411000,
  AuditSampling1795750500000,
  CalibrationMaps1795750600000,
  QualityCounters1795750800000,
  AuditUncertainty1795750900000,
  ShadowRuns1795751000000,
  EvaluationCost1795751100000,
  QualityAlerts1795751200000,
  OAuthApprovedHosts1795751300000,
  DashboardCounters1795751400000,
  LabelEvaluationFacts1795751500000,
];

export function dataSourceOptions(databaseUrl: string, extra: { poolSize?: number } = {}): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    poolSize: extra.poolSize ?? 10,
    extra: { connectionTimeoutMillis: 5000 },
  };
}
