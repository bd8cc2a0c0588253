import type { Schemas } from '../api/client';

type SimulationStatus = Schemas['SimulationDto']['status'];

/** Queued or running: it still changes, so it is polled and can be cancelled. */
export function isActive(status: SimulationStatus): boolean {
  return status === 'queued' || status === 'running';
}
