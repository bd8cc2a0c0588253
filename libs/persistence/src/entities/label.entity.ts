import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Answer } from '@app/domain';

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
}
