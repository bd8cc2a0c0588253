import type { ExpectedAnswers, Ticket } from '@app/domain';
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
  /** Expected answers by question id; absent when the upload gave none. */
  expected?: ExpectedAnswers;
  createdAt: string;
}

export interface DatasetTicketPage {
  items: DatasetTicketView[];
  nextCursor: string | null;
}

export interface UploadResult {
  inserted: number;
  /** Tickets left out because their externalId was in the dataset already (or earlier in the upload). */
  skipped: number;
  total: number;
}

/** A ticket as uploaded: the ticket's fields, plus its expected answers. */
export type UploadedTicket = Ticket & { expected?: ExpectedAnswers };

/** What a dataset template for a pack names: the pack, and the question ids of the version it is for. */
export interface DatasetTemplate {
  packName: string;
  questionIds: string[];
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
    ...(row.expected ? { expected: row.expected } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}
