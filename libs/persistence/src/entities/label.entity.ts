import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Answer } from '@app/domain';

/** A column the trigger fills from the evaluation: never written by the service, nor loaded with the label. */
const COPY = { insert: false, update: false, select: false } as const;

/** A reviewer's answer to one question of one evaluation (one label per question per evaluation). */
@Entity('labels')
export class LabelEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('uuid', { name: 'evaluation_id' })
  evaluationId: string;

  @Column('text', { name: 'question_id' })
  questionId: string;

  @Column('jsonb')
  answer: Answer;

  @Column('text', { default: '' })
  note: string;

  @Column('boolean')
  agreement: boolean;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;

  // Copies of the evaluation's facts for the quality and calibration reports (migration
  // 1795751500000-label-evaluation-facts).

  @Column({ ...COPY, type: 'uuid', name: 'pack_version_id' })
  packVersionId?: string;

  /** The judge's answer to the label's question; null when it gave none. */
  @Column({ ...COPY, type: 'jsonb', name: 'judge_answer', nullable: true })
  judgeAnswer?: Answer | null;

  @Column({ ...COPY, type: 'text', name: 'evaluation_status' })
  evaluationStatus?: string;

  @Column({ ...COPY, type: 'boolean', name: 'audit_selected', nullable: true })
  auditSelected?: boolean | null;

  @Column({ ...COPY, type: 'double precision', name: 'audit_probability', nullable: true })
  auditProbability?: number | null;

  @Column({ ...COPY, type: 'timestamptz', name: 'evaluation_created_at' })
  evaluationCreatedAt?: Date;
}
