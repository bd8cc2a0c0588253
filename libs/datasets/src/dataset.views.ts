import type { Ticket } from '@app/domain';
import type { DatasetEntity, DatasetTicketEntity } from '@app/persistence';

export interface DatasetView {
  id: string;
  name: string;
  ticketCount: number;
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
