import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { AuditStrategy } from '@app/domain';

@Entity('packs')
export class PackEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('text')
  name: string;

  @Column('uuid', { name: 'draft_version_id' })
  draftVersionId: string;

  @Column('uuid', { name: 'live_version_id', nullable: true })
  liveVersionId: string | null;

  /** The expected share of automatic decisions selected for audit; 0 is off (docs/reviews.md). */
  @Column('double precision', { name: 'audit_rate', default: 0 })
  auditRate: number;

  @Column('text', { name: 'audit_strategy', default: 'uncertainty' })
  auditStrategy: AuditStrategy;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;

  @Column('timestamptz', { name: 'deleted_at', nullable: true })
  deletedAt: Date | null;
}
