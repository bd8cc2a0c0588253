import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Ticket } from '@app/domain';

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

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;
}
