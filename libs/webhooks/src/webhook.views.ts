import type { DeliveryRow, DeliveryType } from '@app/persistence';

export interface DeliveryView {
  id: string;
  type: DeliveryType;
  eventId: string | null;
  evaluationId: string | null;
  simulationId: string | null;
  alertId: string | null;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  updatedAt: string;
}

export function toDeliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    type: row.type,
    eventId: row.eventId,
    evaluationId: row.evaluationId,
    simulationId: row.simulationId,
    alertId: row.alertId,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}
