import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull, LessThan, MoreThan, type Repository } from 'typeorm';
import { isUuid, type Ticket } from '@app/domain';
import { DatasetEntity, DatasetTicketEntity } from '../entities/dataset.entity.js';

export type AppendResult =
  | { outcome: 'appended'; inserted: number; total: number }
  | { outcome: 'not_found' }
  | { outcome: 'refused'; stored: number };

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
   * Appends tickets all or nothing, if `fits` takes them given the tickets stored (the domain's
   * `uploadFits`, from the dataset service). The dataset row is locked for the transaction, so
   * concurrent uploads are counted one after the other and never pass the limit together.
   */
  async append(
    userId: string,
    datasetId: string,
    tickets: Ticket[],
    fits: (stored: number) => boolean,
  ): Promise<AppendResult> {
    if (!isUuid(datasetId)) return { outcome: 'not_found' };
    return this.dataSource.transaction(async (tx) => {
      const dataset = await tx.getRepository(DatasetEntity).findOne({
        select: { id: true, ticketCount: true },
        where: { id: datasetId, userId, deletedAt: IsNull() },
        lock: { mode: 'pessimistic_write' },
      });
      if (!dataset) return { outcome: 'not_found' } as const;
      const stored = dataset.ticketCount;
      if (!fits(stored)) return { outcome: 'refused', stored } as const;
      if (tickets.length) {
        await tx.getRepository(DatasetTicketEntity).insert(
          tickets.map((ticket, i) => ({
            id: randomUUID(),
            datasetId,
            userId,
            position: stored + i,
            ticket,
          })),
        );
        await tx
          .getRepository(DatasetEntity)
          .update({ id: datasetId }, { ticketCount: stored + tickets.length });
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
    const rows = await this.tickets.find({
      select: { id: true },
      where: { datasetId, position: LessThan(count) },
      order: { position: 'ASC' },
    });
    return rows.map((row) => row.id);
  }
}
