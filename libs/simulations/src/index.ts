export { SimulationsModule } from './simulations.module.js';
export {
  SimulationService,
  type StartSimulationInput,
  type SimulationComparison,
} from './simulation.service.js';
export { SimulationRunner, type TicketOutcome } from './simulation-runner.js';
export { SimulationQueue } from './simulation-queue.js';
export {
  toSimulationView,
  toSimulationListItemView,
  type SimulationView,
  type SimulationListItemView,
} from './simulation.views.js';
