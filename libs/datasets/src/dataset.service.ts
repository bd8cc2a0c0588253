import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { BadRequestError, NotFoundError, redactTicket, uploadFits, type Ticket } from '@app/domain';
import { DatasetRepository, type DatasetEntity } from '@app/persistence';
import { PositionCursor } from './position-cursor.js';
import {
  toDatasetTicketView,
  toDatasetView,
  MAX_DATASET_TICKETS,
  type DatasetTicketPage,
  type DatasetView,
  type UploadResult,
} from './dataset.views.js';

export const DATASET_TICKETS_PAGE_SIZE = 100;

@Injectable()
export class DatasetService {
  private readonly cursors: PositionCursor;

  constructor(
    private readonly datasets: DatasetRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cursors = new PositionCursor(config.sessionSecret);
  }

  async create(userId: string, name: string): Promise<DatasetView> {
    return toDatasetView(await this.datasets.create(userId, name));
  }

  /** Newest first. */
  async list(userId: string): Promise<DatasetView[]> {
    return (await this.datasets.list(userId)).map(toDatasetView);
  }

  async get(userId: string, datasetId: string): Promise<DatasetView> {
    return toDatasetView(await this.find(userId, datasetId));
  }

  async delete(userId: string, datasetId: string): Promise<void> {
    if (!(await this.datasets.delete(userId, datasetId))) throw new NotFoundError('dataset not found');
  }

  /** Stored tickets in dataset order, 100 a page; the cursor is only valid for this user and dataset. */
  async listTickets(userId: string, datasetId: string, cursor?: string): Promise<DatasetTicketPage> {
    await this.find(userId, datasetId);
    const scope = `${userId}:dataset-tickets:${datasetId}`;
    const after = cursor ? this.cursors.decode(cursor, scope) : -1;
    const rows = await this.datasets.listTickets(userId, datasetId, after, DATASET_TICKETS_PAGE_SIZE + 1);
    const items = rows.slice(0, DATASET_TICKETS_PAGE_SIZE).map(toDatasetTicketView);
    const last = items.at(-1);
    return {
      items,
      nextCursor:
        rows.length > DATASET_TICKETS_PAGE_SIZE && last ? this.cursors.encode(last.position, scope) : null,
    };
  }

  /**
   * Redacts and appends valid tickets, all or nothing: an upload that would take the dataset past
   * its limit is refused whole (`uploadFits`), also when uploads race (the repository counts under a row lock).
   */
  async upload(userId: string, datasetId: string, tickets: Ticket[]): Promise<UploadResult> {
    const redacted = tickets.map(redactTicket);
    const fits = (stored: number) => uploadFits(stored, redacted.length, MAX_DATASET_TICKETS);
    const result = await this.datasets.append(userId, datasetId, redacted, fits);
    switch (result.outcome) {
      case 'not_found':
        throw new NotFoundError('dataset not found');
      case 'refused':
        throw new BadRequestError(
          `dataset would exceed ${MAX_DATASET_TICKETS} tickets (${result.stored} stored, ${tickets.length} uploaded)`,
        );
      case 'appended':
        return { inserted: result.inserted, total: result.total };
    }
  }

  private async find(userId: string, datasetId: string): Promise<DatasetEntity> {
    const dataset = await this.datasets.find(userId, datasetId);
    if (!dataset) throw new NotFoundError('dataset not found');
    return dataset;
  }
}
