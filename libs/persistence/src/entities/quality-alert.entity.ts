import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AlertRule, AlertRuleSettings, AlertStatus } from '@app/domain';

/** A pack's alert rule settings, stored once changed (defaults otherwise: docs/alerts.md). */
@Entity('pack_alert_rules')
export class PackAlertRulesEntity {
  @PrimaryColumn('uuid', { name: 'pack_id' })
  packId: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('jsonb')
  rules: AlertRuleSettings;

  @Column('timestamptz', { name: 'updated_at', default: () => 'clock_timestamp()' })
  updatedAt: Date;
}

/**
 * One quality alert: a rule whose condition held on a pack (and question), with the figures of the
 * test when it was last checked; closed by the worker once the condition clears.
 */
@Entity('quality_alerts')
export class QualityAlertEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('uuid', { name: 'pack_id' })
  packId: string;

  @Column('text')
  rule: AlertRule;

  /** Null for the pack-wide rules (review share, gateway failures). */
  @Column('text', { name: 'question_id', nullable: true })
  questionId: string | null;

  @Column('text', { default: 'open' })
  status: AlertStatus;

  @Column('text')
  summary: string;

  @Column('jsonb')
  figures: Record<string, unknown>;

  @Column('uuid', { name: 'example_evaluation_ids', array: true, default: () => "'{}'" })
  exampleEvaluationIds: string[];

  /** The start of the window the condition was measured on. */
  @Column('timestamptz')
  since: Date;

  @Column('timestamptz', { name: 'created_at', default: () => 'clock_timestamp()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'clock_timestamp()' })
  updatedAt: Date;

  @Column('timestamptz', { name: 'acknowledged_at', nullable: true })
  acknowledgedAt: Date | null;

  @Column('timestamptz', { name: 'closed_at', nullable: true })
  closedAt: Date | null;
}
