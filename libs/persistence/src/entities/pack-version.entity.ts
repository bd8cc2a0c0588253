import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PackDocument } from '@app/domain';

/** One version of a pack's document: the draft (published_at null, editable) or a frozen one. */
@Entity('pack_versions')
export class PackVersionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'pack_id' })
  packId: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('jsonb')
  document: PackDocument;

  @Column('timestamptz', { name: 'created_at', default: () => 'clock_timestamp()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'published_at', nullable: true })
  publishedAt: Date | null;

  /** Set on a draft frozen for a shadow run: never edited, never published, not in the version list. */
  @Column('timestamptz', { name: 'frozen_at', nullable: true })
  frozenAt: Date | null;
}
