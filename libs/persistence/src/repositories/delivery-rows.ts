import type { DeliveryStatus } from '@app/domain';

/** What a delivery completes: an inbound event's evaluation, or a simulation. */
export type DeliveryType = 'evaluation.completed' | 'simulation.completed' | 'simulation.failed';

export interface DeliveryRow {
  id: string;
  userId: string;
  type: DeliveryType;
  /** Set for `evaluation.completed`, with `evaluationId`; null for a simulation's delivery. */
  eventId: string | null;
  evaluationId: string | null;
  /** Set for `simulation.*` deliveries. */
  simulationId: string | null;
  payload: Record<string, unknown>;
  status: DeliveryStatus;
  attempts: number;
  /** 0 for the first round of sends, then one more per manual redelivery (part of its job id). */
  round: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  createdAtText: string;
}

export function toDelivery(raw: Record<string, unknown>): DeliveryRow {
  return {
    id: raw.id as string,
    userId: raw.user_id as string,
    type: raw.type as DeliveryType,
    eventId: raw.event_id as string | null,
    evaluationId: raw.evaluation_id as string | null,
    simulationId: raw.simulation_id as string | null,
    payload: raw.payload as Record<string, unknown>,
    status: raw.status as DeliveryStatus,
    attempts: raw.attempts as number,
    round: raw.round as number,
    lastStatusCode: raw.last_status_code as number | null,
    lastError: raw.last_error as string | null,
    nextAttemptAt: raw.next_attempt_at as Date | null,
    createdAt: raw.created_at as Date,
    updatedAt: raw.updated_at as Date,
    createdAtText: raw.created_at_text as string,
  };
}
