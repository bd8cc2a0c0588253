import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A claimed Idempotency-Key, per user and surface; `evaluationId` is null while the first call runs. */
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

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;
}
