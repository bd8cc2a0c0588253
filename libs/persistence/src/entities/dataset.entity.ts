import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ExpectedAnswers, Ticket } from '@app/domain';

@Entity('datasets')
export class DatasetEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('text')
  name: string;

  @Column('integer', { name: 'ticket_count', default: 0 })
  ticketCount: number;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'deleted_at', nullable: true })
  deletedAt: Date | null;
}

/** A dataset's ticket, stored redacted; `position` orders the dataset (0-based). */
@Entity('dataset_tickets')
export class DatasetTicketEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'dataset_id' })
  datasetId: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('integer')
  position: number;

  @Column('jsonb')
  ticket: Ticket;

  /**
   * The ticket's `externalId`, unique within the dataset (an upload skips tickets it holds already);
   * null without one, and on duplicates stored before that rule (see their migration).
   */
  @Column('text', { name: 'external_id', nullable: true })
  externalId: string | null;

  /** Expected answers by question id; null when the upload gave none. */
  @Column('jsonb', { nullable: true })
  expected: ExpectedAnswers | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}
