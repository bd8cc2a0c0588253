export * from './queues.js';
export {
  defineJob,
  declaredJobs,
  isLastAttempt,
  retriedJobOptions,
  type JobDefinition,
  type JobHandler,
  type JobPayload,
  type JobResult,
} from './job-definition.js';
export { JobTable } from './job-table.js';
export { JobsModule } from './jobs.module.js';
export { RedisRequirementError } from './redis-requirements-check.js';
