export { createTicketJudgeClient, type ClientOptions, type TicketJudgeClient } from './client.js';
export { TicketJudgeError, type Issue } from './errors.js';
export {
  judge,
  type JudgeOptions,
  type JudgeOutcome,
  type JudgeRequest,
  type JudgeResponse,
} from './judge.js';
export { paginate, pages, type Answer, type Page } from './pagination.js';
export {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  IN_PROGRESS_ERROR,
  parseRetryAfter,
  retryDelay,
  type AttemptResult,
  type RetryPolicy,
} from './retry.js';
export {
  DEFAULT_TOLERANCE_MS,
  SIGNATURE_HEADER,
  SignatureVerificationError,
  signatureOf,
  verifyEvent,
  verifySignature,
  type QualityAlertEvent,
  type ServiceEvent,
} from './signature.js';
export type { components, paths } from './schema.js';
