import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, In, IsNull, LessThan, MoreThan, type Repository } from 'typeorm';
import { isUuid, type ExpectedAnswers, type Ticket } from '@app/domain';
import { DatasetEntity, DatasetTicketEntity } from '../entities/dataset.entity.js';
import {
  activeSimulationOnDataset,
  decrementTicketCount,
  deleteDatasetTicket,
  lockDataset,
  shiftTicketsAside,
  shiftTicketsBack,
} from '../statements/datasets.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';

/** A ticket to store: redacted, with its expected answers (null for none). */
export interface NewDatasetTicket {
  ticket: Ticket;
  expected: ExpectedAnswers | null;
}

/** What an upload stores, decided on what the locked dataset holds: its count and the upload's known externalIds. */
export type AppendDecision =
  { fits: true; tickets: NewDatasetTicket[]; skipped: number } | { fits: false; adding: number };

export type AppendResult =
  | { outcome: 'appended'; inserted: number; skipped: number; total: number }
  | { outcome: 'not_found' }
  | { outcome: 'refused'; stored: number; adding: number };

export type DeleteTicketResult = 'deleted' | 'dataset_not_found' | 'ticket_not_found' | 'simulation_active';

/** Datasets and their (redacted) tickets, scoped by owner; deleted datasets are not found. */
@Injectable()
export class DatasetRepository {
  private readonly datasets: Repository<DatasetEntity>;
  private readonly tickets: Repository<DatasetTicketEntity>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: PreparedSql,
  ) {
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
   * Appends tickets as `decide` says (the dataset service's `planUpload`), given the tickets stored
   * and which of the upload's `externalIds` the dataset holds: all or nothing. The dataset row is
   * locked for the transaction, so concurrent uploads are counted and matched one after the other:
   * they never pass the limit together, nor store one externalId twice (a unique index backs it).
   * Entity calls only, the lock a find's `lock` option.
   */
  async append(
    userId: string,
    datasetId: string,
    externalIds: string[],
    decide: (stored: number, known: ReadonlySet<string>) => AppendDecision,
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
      const known = externalIds.length
        ? await tx.getRepository(DatasetTicketEntity).find({
            select: { externalId: true },
            where: { datasetId, externalId: In(externalIds) },
          })
        : [];
      const decision = decide(stored, new Set(known.map((row) => row.externalId!)));
      if (!decision.fits) return { outcome: 'refused', stored, adding: decision.adding } as const;
      const { tickets, skipped } = decision;
      if (tickets.length) {
        await tx.getRepository(DatasetTicketEntity).insert(
          tickets.map(({ ticket, expected }, i) => ({
            id: randomUUID(),
            datasetId,
            userId,
            position: stored + i,
            ticket,
            externalId: ticket.externalId ?? null,
            expected,
          })),
        );
        await tx
          .getRepository(DatasetEntity)
          .update({ id: datasetId }, { ticketCount: stored + tickets.length });
      }
      return {
        outcome: 'appended',
        inserted: tickets.length,
        skipped,
        total: stored + tickets.length,
      } as const;
    });
  }

  /**
   * Deletes one ticket under the dataset's lock; the tickets after it move up a place and the count
   * goes down by one. Refused while a queued or running simulation may still read the dataset.
   * Statements only, the lock included.
   */
  async deleteTicket(userId: string, datasetId: string, ticketId: string): Promise<DeleteTicketResult> {
    if (!isUuid(datasetId)) return 'dataset_not_found';
    return this.dataSource
      .transaction(async (tx): Promise<DeleteTicketResult> => {
        if (!(await this.sql.first(lockDataset, { userId, datasetId }, tx))) return 'dataset_not_found';
        if (!isUuid(ticketId)) return 'ticket_not_found';
        const deleted = await this.sql.first(deleteDatasetTicket, { userId, datasetId, ticketId }, tx);
        if (!deleted) return 'ticket_not_found';
        if ((await this.sql.first(activeSimulationOnDataset, { datasetId }, tx))?.active) {
          // Nothing of it stays: the transaction is rolled back.
          throw new SimulationActive();
        }
        await this.sql.query(shiftTicketsAside, { datasetId, after: deleted.position }, tx);
        await this.sql.query(shiftTicketsBack, { datasetId }, tx);
        await this.sql.query(decrementTicketCount, { datasetId }, tx);
        return 'deleted';
      })
      .catch((error: unknown): DeleteTicketResult => {
        if (error instanceof SimulationActive) return 'simulation_active';
        throw error;
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

/** Thrown inside the delete's transaction to roll it back. */
class SimulationActive extends Error {}
