import type { Ticket } from '@app/domain';
import type { DatasetEntity, DatasetTicketEntity } from '@app/persistence';

/** The spec's limit, counted with what is already stored. */
export const MAX_DATASET_TICKETS = 250;

export interface DatasetView {
  id: string;
  name: string;
  ticketCount: number;
  /** MAX_DATASET_TICKETS, in every answer, so clients need no copy of the limit. */
  maxTickets: number;
  createdAt: string;
}

/** A stored ticket: its place in the dataset (0-based `position`) and the redacted ticket itself. */
export interface DatasetTicketView {
  id: string;
  position: number;
  ticket: Ticket;
  createdAt: string;
}

export interface DatasetTicketPage {
  items: DatasetTicketView[];
  nextCursor: string | null;
}

export interface UploadResult {
  inserted: number;
  total: number;
}

export function toDatasetView(dataset: DatasetEntity): DatasetView {
  return {
    id: dataset.id,
    name: dataset.name,
    ticketCount: dataset.ticketCount,
    maxTickets: MAX_DATASET_TICKETS,
    createdAt: dataset.createdAt.toISOString(),
  };
}

export function toDatasetTicketView(row: DatasetTicketEntity): DatasetTicketView {
  return {
    id: row.id,
    position: row.position,
    ticket: row.ticket,
    createdAt: row.createdAt.toISOString(),
  };
}
