export * from './queues.js';
export { JobsModule } from './jobs.module.js';
