import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Ticket } from '@app/domain';

/** An accepted inbound event: durable before the 202, judged later by a worker. */
@Entity('inbound_events')
export class InboundEventEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('uuid', { name: 'pack_id' })
  packId: string;

  @Column('uuid', { name: 'pack_version_id' })
  packVersionId: string;

  @Column('jsonb')
  ticket: Ticket;

  /** Set once the event's evaluation is stored. */
  @Column('uuid', { name: 'evaluation_id', nullable: true })
  evaluationId: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'clock_timestamp()' })
  createdAt: Date;
}
