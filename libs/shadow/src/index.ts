export { ShadowModule } from './shadow.module.js';
export { ShadowService, type StartShadowRunInput } from './shadow.service.js';
export { ShadowRunner, type SampleOutcome, type ShadowOutcome } from './shadow-runner.js';
export { ShadowQueue } from './shadow-queue.js';
export { LiveBacklog } from './live-backlog.js';
export {
  JUDGE_SHADOW_JOB,
  JudgeShadowJob,
  LIVE_BACKLOG_PAUSE_MS,
  type JudgeShadowPayload,
} from './jobs/judge-shadow.job.js';
export { SAMPLE_SHADOW_JOB, SampleShadowJob, type SampleShadowPayload } from './jobs/sample-shadow.job.js';
export {
  labelAgreement,
  shadowReport,
  SHADOW_AGREEMENT_CONFIDENCE,
  toShadowRunView,
  type FlipCell,
  type QuestionAgreement,
  type QuestionFlips,
  type ShadowReport,
  type ShadowRunDetail,
  type ShadowRunView,
  type SideUsage,
} from './shadow-report.js';
