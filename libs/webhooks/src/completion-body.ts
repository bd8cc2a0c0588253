import type { DeliveryRow, SimulationRow } from '@app/persistence';

/** A completion's signed body and the headers that name what it completes. */
export interface CompletionRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * `evaluation.completed`: the payload stored when the event was judged, with this attempt's
 * `deliveryId` and `sentAt` (new on every attempt, so receivers can refuse stale replays).
 */
export function evaluationCompletion(delivery: DeliveryRow, sentAt: Date): CompletionRequest {
  const { type, eventId, evaluation } = delivery.payload as {
    type: string;
    eventId: string;
    evaluation: unknown;
  };
  const body = JSON.stringify({
    type,
    eventId,
    deliveryId: delivery.id,
    sentAt: sentAt.toISOString(),
    evaluation,
  });
  return { body, headers: { 'x-service-event-id': eventId } };
}

/**
 * `quality.alert`: `{type, alert}`, the alert as it was when it opened (stored with the delivery).
 * The delivery id travels in X-Service-Delivery-Id, as for every delivery.
 */
export function alertNotice(delivery: DeliveryRow): CompletionRequest {
  const { alert } = delivery.payload as { alert: { id: string } };
  const body = JSON.stringify({ type: 'quality.alert', alert });
  return { body, headers: { 'x-service-alert-id': alert.id } };
}

/**
 * `simulation.completed` or `simulation.failed`, built from the finished simulation when it is sent
 * (a finished simulation no longer changes): its counts, and the reason when it failed.
 */
export function simulationCompletion(
  delivery: DeliveryRow,
  simulation: SimulationRow,
  sentAt: Date,
): CompletionRequest {
  const body = JSON.stringify({
    type: delivery.type,
    deliveryId: delivery.id,
    sentAt: sentAt.toISOString(),
    simulation: {
      id: simulation.id,
      datasetId: simulation.datasetId,
      packId: simulation.packId,
      packVersionId: simulation.packVersionId,
      status: simulation.status,
      reason: simulation.reason,
      total: simulation.total,
      completed: simulation.completed,
      byStatus: { accept: simulation.accept, review: simulation.review, reject: simulation.reject },
      createdAt: simulation.createdAt.toISOString(),
      startedAt: simulation.startedAt?.toISOString() ?? null,
      finishedAt: simulation.finishedAt?.toISOString() ?? null,
    },
  });
  return { body, headers: { 'x-service-simulation-id': simulation.id } };
}
