import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;

  @Column('timestamptz', { name: 'deleted_at', nullable: true })
  deletedAt: Date | null;
}
