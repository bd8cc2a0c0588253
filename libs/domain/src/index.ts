export { PERMISSIONS, isPermission, type Permission } from './permissions.js';
export * from './errors.js';
export { isUuid } from './ids.js';
export {
  API_KEY_PREFIX,
  API_KEY_DISPLAY_PREFIX_LENGTH,
  crc32,
  generateApiKeySecret,
  isWellFormedApiKey,
  hashSecret,
} from './api-key-format.js';
export {
  TICKET_LIMITS,
  TICKET_ROLES,
  ticketMessageSchema,
  ticketSchema,
  type Ticket,
  type TicketMessage,
  type TicketRole,
  type MetadataValue,
} from './ticket.js';
export * from './pack-document.js';
export {
  hasUnpublishedChanges,
  NO_QUESTIONS_ISSUE,
  planPublication,
  type PackPublication,
  type PackVersions,
  type PublicationDecision,
} from './pack-publication.js';
export * from './judgment.js';
export { buildResponseSchema, parseModelOutput, scoreValues, type ParsedOutput } from './model-output.js';
export {
  decide,
  selectedProbabilities,
  selectedProbability,
  type Calibrate,
  type Decision,
} from './decision.js';
export { judgeLexically, LEXICAL_MODEL_ID, type LexicalJudgment } from './lexical-model.js';
export { modelCost, type CostSum, type ModelPrices } from './cost.js';
export { redactText, redactTicket, REDACTION_PLACEHOLDERS, warmUpRedaction } from './redaction.js';
export * from './calibration.js';
export { answerCell, type ExportCell, type ExportTable } from './export-table.js';
export { checkLabelFit, type LabelFit } from './label-fit.js';
export { planUpload, uploadFits, type UploadPlan } from './dataset-upload.js';
export {
  EXPECTED_ANSWER_LIMITS,
  expectedAgreement,
  expectedAgrees,
  expectedAnswersSchema,
  type ExpectedAgreementReport,
  type ExpectedAnswer,
  type ExpectedAnswers,
  type ExpectedDisagreement,
  type ExpectedTicket,
  type QuestionAgreement,
} from './expected-answers.js';
export { signBody, verifyBodySignature } from './signature.js';
export {
  IDEMPOTENCY_TTL_HOURS,
  IdempotencyRules,
  claimAsFound,
  idempotencyResultKind,
  type ClaimRelease,
  type ClaimSettlement,
  type ClaimVerdict,
  type IdempotencyClaim,
  type IdempotencyResultKind,
  type IdempotencySurface,
  type StoredClaim,
} from './idempotency.js';
export {
  canRedeliver,
  nextAttemptAfter,
  planAttempt,
  retryAfterClaimRefused,
  recordOfAttempt,
  statusAfterAttempt,
  type AttemptOutcome,
  type AttemptPlan,
  type AttemptRecord,
  type DeliveryClaimState,
  type DeliveryProgress,
  type DeliveryStatus,
} from './delivery.js';
export {
  ACTIVE_SIMULATION_STATUSES,
  initialSimulationState,
  initialSimulationStatus,
  isActiveSimulation,
  type SimulationStatus,
} from './simulation-status.js';
export * from './quality/audit-draw.js';
export * from './quality/index.js';
export * from './alerts/index.js';
export { canonicalJson, questionFingerprint } from './question-fingerprint.js';
export {
  calibratedProbabilities,
  calibrationRefitDue,
  calibrationTrainingAnswer,
  calibratorOf,
  MIN_LABELS_TO_FIT,
  REFIT_AFTER_MS,
  REFIT_AFTER_NEW_LABELS,
  usesCalibration,
  type CalibrationLabel,
  type FittedCalibrationMap,
} from './calibration-fit.js';
export * from './shadow.js';
