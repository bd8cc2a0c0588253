import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { JudgmentResult, ShadowRunStatus, ShadowStopReason } from '@app/domain';

/** A shadow run: a pack version judging a sample of the pack's live evaluations (docs/shadow-runs.md). */
@Entity('shadow_runs')
export class ShadowRunEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('uuid', { name: 'pack_id' })
  packId: string;

  @Column('uuid', { name: 'pack_version_id' })
  packVersionId: string;

  @Column('double precision', { name: 'sample_rate' })
  sampleRate: number;

  @Column('integer', { name: 'max_judgments', nullable: true })
  maxJudgments: number | null;

  @Column('text', { default: 'active' })
  status: ShadowRunStatus;

  @Column('text', { name: 'stop_reason', nullable: true })
  stopReason: ShadowStopReason | null;

  /** Live evaluations drawn so far (each has a shadow_judgments row). */
  @Column('integer', { default: 0 })
  sampled: number;

  /** Shadow judgments recorded so far, failed ones included. */
  @Column('integer', { default: 0 })
  judged: number;

  /** The sampler's cursor: live evaluations up to (scanned_until, scanned_until_id) were looked at. */
  @Column('timestamptz', { name: 'scanned_until' })
  scannedUntil: Date;

  @Column('uuid', { name: 'scanned_until_id', nullable: true })
  scannedUntilId: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'clock_timestamp()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'stopped_at', nullable: true })
  stoppedAt: Date | null;
}

/** One sampled live evaluation of a shadow run: pending until the worker judged it again. */
@Entity('shadow_judgments')
export class ShadowJudgmentEntity {
  @PrimaryColumn('uuid', { name: 'shadow_run_id' })
  shadowRunId: string;

  @PrimaryColumn('uuid', { name: 'evaluation_id' })
  evaluationId: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('text', { default: 'pending' })
  state: 'pending' | 'judged' | 'failed';

  /** The live evaluation's status when it was judged again. */
  @Column('text', { name: 'live_status', nullable: true })
  liveStatus: string | null;

  @Column('text', { nullable: true })
  status: string | null;

  @Column('jsonb', { nullable: true })
  result: JudgmentResult | null;

  /** `{questionId: [live category, shadow category]}` (the domain's answerPairs). */
  @Column('jsonb', { name: 'answer_pairs', nullable: true })
  answerPairs: Record<string, [string, string]> | null;

  @Column('text', { name: 'model_id', nullable: true })
  modelId: string | null;

  @Column('integer', { name: 'latency_ms', nullable: true })
  latencyMs: number | null;

  @Column('integer', { name: 'input_tokens', nullable: true })
  inputTokens: number | null;

  @Column('integer', { name: 'output_tokens', nullable: true })
  outputTokens: number | null;

  /** USD from the configured prices; null where the model has none. */
  @Column('double precision', { name: 'cost_usd', nullable: true })
  costUsd: number | null;

  @Column('timestamptz', { name: 'sampled_at', default: () => 'clock_timestamp()' })
  sampledAt: Date;

  @Column('timestamptz', { name: 'judged_at', nullable: true })
  judgedAt: Date | null;
}
