export * from './queues.js';
export { JobsModule } from './jobs.module.js';
export { RedisRequirementError } from './redis-requirements-check.js';
