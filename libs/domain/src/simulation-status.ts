/**
 * A simulation's states: `queued` (recorded, its start job not yet run) -> `running` -> one of
 * `completed` (every ticket has its evaluation), `failed` (a job can never succeed; with a reason)
 * or `cancelled` (by its owner). The last three are final: nothing moves a finished run again.
 */
export type SimulationStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** The states a run can still leave: only these are started, judged, completed, failed or cancelled. */
export const ACTIVE_SIMULATION_STATUSES = [
  'queued',
  'running',
] as const satisfies readonly SimulationStatus[];

export function isActiveSimulation(status: SimulationStatus): boolean {
  return (ACTIVE_SIMULATION_STATUSES as readonly SimulationStatus[]).includes(status);
}

/** A dataset with nothing to judge completes at once; anything else waits for its start job. */
export function initialSimulationStatus(total: number): SimulationStatus {
  return total === 0 ? 'completed' : 'queued';
}

/** A new simulation's state: `queued`, or `completed` (started and finished `now`) when empty. */
export function initialSimulationState(
  total: number,
  now: Date,
): { status: SimulationStatus; finishedAt: Date | null } {
  const status = initialSimulationStatus(total);
  return { status, finishedAt: status === 'completed' ? now : null };
}
