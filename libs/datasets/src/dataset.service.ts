import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  planUpload,
  redactTicket,
  type PackDocument,
} from '@app/domain';
import { DatasetRepository, PackRepository, type DatasetEntity } from '@app/persistence';
import { PositionCursor } from './position-cursor.js';
import {
  toDatasetTicketView,
  toDatasetView,
  MAX_DATASET_TICKETS,
  type DatasetTemplate,
  type DatasetTicketPage,
  type DatasetView,
  type UploadedTicket,
  type UploadResult,
} from './dataset.views.js';

export const DATASET_TICKETS_PAGE_SIZE = 100;

@Injectable()
export class DatasetService {
  private readonly cursors: PositionCursor;

  constructor(
    private readonly datasets: DatasetRepository,
    private readonly packs: PackRepository,
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
   * Redacts and appends valid tickets with their expected answers, all or nothing: tickets whose
   * externalId the dataset holds (or an earlier ticket of the upload holds) are skipped (`planUpload`),
   * and an upload whose other tickets would take the dataset past its limit is refused whole, also
   * when uploads race (the repository decides under a row lock).
   */
  async upload(userId: string, datasetId: string, uploaded: UploadedTicket[]): Promise<UploadResult> {
    const items = uploaded.map(({ expected, ...ticket }) => ({
      externalId: ticket.externalId,
      ticket: redactTicket(ticket),
      expected: expected && Object.keys(expected).length ? expected : null,
    }));
    const externalIds = [...new Set(items.flatMap((item) => item.externalId ?? []))];
    const result = await this.datasets.append(userId, datasetId, externalIds, (stored, known) => {
      const plan = planUpload(items, known, stored, MAX_DATASET_TICKETS);
      return plan.fits
        ? { fits: true, tickets: plan.add, skipped: plan.skipped }
        : { fits: false, adding: plan.add.length };
    });
    switch (result.outcome) {
      case 'not_found':
        throw new NotFoundError('dataset not found');
      case 'refused':
        throw new BadRequestError(
          `dataset would exceed ${MAX_DATASET_TICKETS} tickets (${result.stored} stored, ${result.adding} uploaded)`,
        );
      case 'appended':
        return { inserted: result.inserted, skipped: result.skipped, total: result.total };
    }
  }

  /** Deletes one ticket; the tickets after it move up a place. */
  async deleteTicket(userId: string, datasetId: string, ticketId: string): Promise<void> {
    switch (await this.datasets.deleteTicket(userId, datasetId, ticketId)) {
      case 'dataset_not_found':
        throw new NotFoundError('dataset not found');
      case 'ticket_not_found':
        throw new NotFoundError('ticket not found');
      case 'simulation_active':
        throw new ConflictError('dataset has a simulation in progress');
      case 'deleted':
        return;
    }
  }

  /**
   * The question ids a dataset template for the pack names: of its live version (`live`), its draft
   * (`draft`), or by default the live version, the draft when none is published.
   */
  async template(userId: string, packId: string, version?: 'live' | 'draft'): Promise<DatasetTemplate> {
    const pack = await this.packs.find(userId, packId);
    if (!pack) throw new NotFoundError('pack not found');
    let document: PackDocument = pack.document;
    if (version !== 'draft' && pack.liveDocument) document = pack.liveDocument;
    else if (version === 'live') throw new ConflictError('pack has no published version');
    return { packName: pack.name, questionIds: document.questions.map((question) => question.id) };
  }

  private async find(userId: string, datasetId: string): Promise<DatasetEntity> {
    const dataset = await this.datasets.find(userId, datasetId);
    if (!dataset) throw new NotFoundError('dataset not found');
    return dataset;
  }
}
