export { SimulationsModule } from './simulations.module.js';
export {
  SimulationService,
  MAX_LISTED_DISAGREEMENTS,
  type StartSimulationInput,
  type SimulationComparison,
} from './simulation.service.js';
export { SimulationExports } from './simulation.export.js';
export {
  SimulationRunner,
  TICKET_JOBS_PER_MODEL_CALL,
  simulationJobConcurrency,
  type TicketOutcome,
} from './simulation-runner.js';
export { SimulationQueue } from './simulation-queue.js';
export {
  START_SIMULATION_JOB,
  StartSimulationJob,
  type StartSimulationPayload,
} from './jobs/start-simulation.job.js';
export { JUDGE_TICKET_JOB, JudgeTicketJob, type JudgeTicketPayload } from './jobs/judge-ticket.job.js';
export {
  toSimulationView,
  toSimulationListItemView,
  type SimulationView,
  type SimulationListItemView,
  type ExpectedDisagreementPage,
} from './simulation.views.js';
