import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { CalibrationMap, CalibrationPoint } from '@app/domain';

/**
 * A question's last calibration fit, by the fingerprint of its wording (docs/quality.md,
 * "Calibration"); method and points are null when it had too few labels for a map.
 */
@Entity('calibration_maps')
export class CalibrationMapEntity {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @PrimaryColumn('uuid', { name: 'pack_id' })
  packId: string;

  @PrimaryColumn('text', { name: 'question_id' })
  questionId: string;

  @PrimaryColumn('text')
  fingerprint: string;

  @Column('text', { nullable: true })
  method: CalibrationMap['method'] | null;

  @Column('integer')
  labels: number;

  @Column('jsonb', { nullable: true })
  points: CalibrationPoint[] | null;

  @Column('timestamptz', { name: 'fitted_at' })
  fittedAt: Date;
}
