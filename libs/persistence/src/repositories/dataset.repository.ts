import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull, MoreThan, type Repository } from 'typeorm';
import { isUuid, type Ticket } from '@app/domain';
import { DatasetEntity, DatasetTicketEntity } from '../entities/dataset.entity.js';

export type AppendResult =
  | { outcome: 'appended'; inserted: number; total: number }
  | { outcome: 'not_found' }
  | { outcome: 'over_limit'; stored: number };

/** Datasets and their (redacted) tickets, scoped by owner; deleted datasets are not found. */
@Injectable()
export class DatasetRepository {
  private readonly datasets: Repository<DatasetEntity>;
  private readonly tickets: Repository<DatasetTicketEntity>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.datasets = dataSource.getRepository(DatasetEntity);
    this.tickets = dataSource.getRepository(DatasetTicketEntity);
  }

  async create(userId: string, name: string): Promise<DatasetEntity> {
    return this.datasets.save(
      this.datasets.create({
        id: randomUUID(),
        userId,
        name,
        ticketCount: 0,
        createdAt: new Date(),
        deletedAt: null,
      }),
    );
  }

  list(userId: string): Promise<DatasetEntity[]> {
    return this.datasets.find({
      where: { userId, deletedAt: IsNull() },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  find(userId: string, id: string): Promise<DatasetEntity | null> {
    return isUuid(id) ? this.datasets.findOneBy({ id, userId, deletedAt: IsNull() }) : Promise.resolve(null);
  }

  async delete(userId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.datasets.update({ id, userId, deletedAt: IsNull() }, { deletedAt: new Date() });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Appends tickets all or nothing. The dataset row is locked for the transaction, so concurrent
   * uploads are counted one after the other and never pass `limit` together.
   */
  async append(userId: string, datasetId: string, tickets: Ticket[], limit: number): Promise<AppendResult> {
    if (!isUuid(datasetId)) return { outcome: 'not_found' };
    return this.dataSource.transaction(async (tx) => {
      const rows: Array<{ ticket_count: number }> = await tx.query(
        `SELECT ticket_count FROM datasets WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`,
        [datasetId, userId],
      );
      if (!rows[0]) return { outcome: 'not_found' } as const;
      const stored = rows[0].ticket_count;
      if (stored + tickets.length > limit) return { outcome: 'over_limit', stored } as const;
      if (tickets.length) {
        await tx.query(
          `INSERT INTO dataset_tickets (id, dataset_id, user_id, position, ticket)
           SELECT gen_random_uuid(), $1, $2, $3 + t.ordinality - 1, t.ticket
             FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS t(ticket, ordinality)`,
          [datasetId, userId, stored, JSON.stringify(tickets)],
        );
        await tx.query(`UPDATE datasets SET ticket_count = $2 WHERE id = $1`, [
          datasetId,
          stored + tickets.length,
        ]);
      }
      return { outcome: 'appended', inserted: tickets.length, total: stored + tickets.length } as const;
    });
  }

  /** Tickets in dataset order after `afterPosition` (keyset pagination). */
  listTickets(
    userId: string,
    datasetId: string,
    afterPosition: number,
    limit: number,
  ): Promise<DatasetTicketEntity[]> {
    return this.tickets.find({
      where: { userId, datasetId, position: MoreThan(afterPosition) },
      order: { position: 'ASC' },
      take: limit,
    });
  }

  /** The first `count` tickets' ids, in order (a simulation covers the tickets stored when it started). */
  async ticketIds(datasetId: string, count: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM dataset_tickets WHERE dataset_id = $1 AND position < $2 ORDER BY position`,
      [datasetId, count],
    );
    return rows.map((row) => row.id);
  }
}
