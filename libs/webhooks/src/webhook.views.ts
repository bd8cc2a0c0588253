import type { DeliveryRow } from '@app/persistence';

export interface DeliveryView {
  id: string;
  eventId: string;
  evaluationId: string;
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
    eventId: row.eventId,
    evaluationId: row.evaluationId,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}
