import { ACTIVE_SIMULATION_STATUSES } from '@app/domain';
import { defineStatement } from './statement.js';

const ACTIVE = ACTIVE_SIMULATION_STATUSES.map((status) => `'${status}'`).join(', ');

/** The user's live dataset, locked for the transaction; no row when not found. */
export const lockDataset = defineStatement<{ userId: string; datasetId: string }, { id: string }>({
  name: 'datasets.lock',
  sql: `
    SELECT id FROM datasets WHERE id = :datasetId AND user_id = :userId AND deleted_at IS NULL FOR UPDATE`,
});

/** Whether a queued or running simulation still reads the dataset's tickets. */
export const activeSimulationOnDataset = defineStatement<{ datasetId: string }, { active: boolean }>({
  name: 'datasets.activeSimulation',
  sql: `
    SELECT EXISTS (SELECT 1 FROM simulations WHERE dataset_id = :datasetId AND status IN (${ACTIVE})) AS active`,
});

/** Deletes one ticket of the user's dataset, returning its position; no row when it is not there. */
export const deleteDatasetTicket = defineStatement<
  { userId: string; datasetId: string; ticketId: string },
  { position: number }
>({
  name: 'datasets.deleteTicket',
  sql: `
    DELETE FROM dataset_tickets
     WHERE id = :ticketId AND dataset_id = :datasetId AND user_id = :userId RETURNING position`,
});

/**
 * The tickets after a deleted one move up a place, so positions stay 0..n-1 (a simulation takes the
 * first `total`). In two steps, as the unique (dataset_id, position) is checked row by row: first
 * out of the way to negative positions, then back to one less.
 */
export const shiftTicketsAside = defineStatement<{ datasetId: string; after: number }>({
  name: 'datasets.shiftTicketsAside',
  sql: `
    UPDATE dataset_tickets SET position = -position WHERE dataset_id = :datasetId AND position > :after`,
});

export const shiftTicketsBack = defineStatement<{ datasetId: string }>({
  name: 'datasets.shiftTicketsBack',
  sql: `
    UPDATE dataset_tickets SET position = -position - 1 WHERE dataset_id = :datasetId AND position < 0`,
});

export const decrementTicketCount = defineStatement<{ datasetId: string }>({
  name: 'datasets.decrementTicketCount',
  sql: `
    UPDATE datasets SET ticket_count = ticket_count - 1 WHERE id = :datasetId`,
});
