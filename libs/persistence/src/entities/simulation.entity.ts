import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SimulationStatus } from '@app/domain';

export type { SimulationStatus };

@Entity('simulations')
export class SimulationEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('uuid', { name: 'dataset_id' })
  datasetId: string;

  @Column('uuid', { name: 'pack_id' })
  packId: string;

  @Column('uuid', { name: 'pack_version_id' })
  packVersionId: string;

  @Column('text')
  status: SimulationStatus;

  @Column('text', { nullable: true })
  reason: string | null;

  /** The name its owner gave it, if any. */
  @Column('text', { nullable: true })
  name: string | null;

  @Column('integer')
  total: number;

  @Column('timestamptz', { name: 'created_at', default: () => 'clock_timestamp()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'started_at', nullable: true })
  startedAt: Date | null;

  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt: Date | null;
}
