import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { EvaluationSource, EvaluationStatus, JudgmentResult, Ticket } from '@app/domain';

@Entity('evaluations')
export class EvaluationEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('uuid', { name: 'pack_id' })
  packId: string;

  @Column('uuid', { name: 'pack_version_id' })
  packVersionId: string;

  @Column('text')
  source: EvaluationSource;

  @Column('text')
  status: EvaluationStatus;

  @Column('jsonb', { name: 'redacted_ticket' })
  redactedTicket: Ticket;

  @Column('jsonb')
  result: JudgmentResult;

  @Column('text', { name: 'model_id' })
  modelId: string;

  @Column('integer', { name: 'latency_ms' })
  latencyMs: number;

  @Column('integer', { name: 'input_tokens', default: 0 })
  inputTokens: number;

  @Column('integer', { name: 'output_tokens', default: 0 })
  outputTokens: number;

  @Column('uuid', { name: 'simulation_id', nullable: true })
  simulationId: string | null;

  @Column('uuid', { name: 'dataset_ticket_id', nullable: true })
  datasetTicketId: string | null;

  @Column('uuid', { name: 'inbound_event_id', nullable: true })
  inboundEventId: string | null;

  /** `{questionId: selected probability}` of the answers, for calibration; null on rows written before it was stored. */
  @Column('jsonb', { name: 'selected_probabilities', nullable: true })
  selectedProbabilities: Record<string, number> | null;

  /** π, the probability with which the audit draw selected it; null when nothing was drawn (docs/reviews.md). */
  @Column('double precision', { name: 'audit_probability', nullable: true })
  auditProbability: number | null;

  /** Whether the audit draw selected it; null when nothing was drawn. */
  @Column('boolean', { name: 'audit_selected', nullable: true })
  auditSelected: boolean | null;

  /** The judge's uncertainty u the audit draw used (docs/quality.md); null when nothing was drawn, or drawn before it was stored. */
  @Column('double precision', { name: 'audit_uncertainty', nullable: true })
  auditUncertainty: number | null;

  /** USD: its tokens at its model's configured price (docs/cost.md); null when the model has no price. */
  @Column('double precision', { name: 'cost_usd', nullable: true })
  costUsd: number | null;

  /** True when the evaluation has at least one label (kept by the label repository). */
  @Column('boolean', { default: false })
  labeled: boolean;

  @Column('timestamptz', { name: 'created_at', default: () => 'clock_timestamp()' })
  createdAt: Date;
}
