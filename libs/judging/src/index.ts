export { JudgingModule, createModelGateway } from './judging.module.js';
export {
  JudgeService,
  MAX_TICKET_CHARS,
  isModelUnavailable,
  isRetryable,
  type JudgeVersionInput,
  type ShadowJudgmentInput,
} from './judge.service.js';
export { PlaygroundJudge } from './playground-judge.js';
export { AuditSampler, type AuditCandidate } from './audit-sampler.js';
export {
  EvaluationService,
  EVALUATIONS_PAGE_SIZE,
  EVALUATIONS_SEARCH_TOTAL_CAP,
  EVALUATIONS_TOTAL_CAP,
  type EvaluationListPage,
} from './evaluation.service.js';
export { IdempotencyService, type IdempotentWork } from './idempotency/idempotency.service.js';
export { IdempotencyKeyRepository, type ClaimResult } from './idempotency/idempotency-key.repository.js';
export { IDEMPOTENCY_TTL_HOURS } from '@app/domain';
export {
  MODEL_GATEWAY,
  type ModelGateway,
  type GatewayOutcome,
  type GatewayRequest,
} from './gateway/model-gateway.js';
export { OpenAiGateway, failureKind } from './gateway/openai.gateway.js';
export { LocalLexicalGateway } from './gateway/local.gateway.js';
export {
  toEvaluationView,
  toSummaryView,
  toJudgeResponse,
  type EvaluationView,
  type EvaluationSummaryView,
  type JudgeResponse,
  type LabelView,
} from './evaluation.views.js';
export { toLabelView } from './label.views.js';
export {
  CalibrationReader,
  calibratedFields,
  UNCALIBRATED,
  type CalibratedFields,
  type CalibrationUsedView,
} from './calibrated-fields.js';
