import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A claimed Idempotency-Key, per user and surface. Its result (`idempotencyResultKind` in
 * libs/domain) is null while the first call runs: `evaluationId` for judge and mcp, `eventId` for inbound.
 */
@Entity('idempotency_keys')
export class IdempotencyKeyEntity {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @PrimaryColumn('text')
  surface: string;

  @PrimaryColumn('text')
  key: string;

  @Column('uuid', { name: 'evaluation_id', nullable: true })
  evaluationId: string | null;

  @Column('uuid', { name: 'event_id', nullable: true })
  eventId: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;
}
