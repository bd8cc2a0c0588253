import { isActiveSimulation, type SimulationStatus } from '@app/domain';

export interface PaceInput {
  status: SimulationStatus;
  total: number;
  completed: number;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface Pace {
  /** Tickets judged per second since the run started (until it finished); null before the first. */
  ratePerSecond: number | null;
  /** When the run should finish at that rate; only while it is queued or running. */
  estimatedFinishAt: string | null;
}

/** A simulation's pace, from its start time and count: what `GET /api/simulations/{id}` reports. */
export function simulationPace(run: PaceInput, now: Date): Pace {
  if (!run.startedAt || run.completed === 0) return { ratePerSecond: null, estimatedFinishAt: null };
  const seconds = Math.max(0.001, ((run.finishedAt ?? now).getTime() - run.startedAt.getTime()) / 1000);
  const rate = run.completed / seconds;
  const active = isActiveSimulation(run.status);
  return {
    ratePerSecond: Math.round(rate * 100) / 100,
    estimatedFinishAt: active
      ? new Date(now.getTime() + ((run.total - run.completed) / rate) * 1000).toISOString()
      : null,
  };
}
