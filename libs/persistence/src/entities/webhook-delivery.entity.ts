import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DeliveryStatus } from '@app/domain';

/** What a delivery sends: an inbound event's evaluation, a simulation's end, or a quality alert. */
export type DeliveryType =
  'evaluation.completed' | 'simulation.completed' | 'simulation.failed' | 'quality.alert';

/**
 * One completion sent to a user's endpoint: either an inbound event's (event and evaluation set)
 * or a simulation's (simulation set), retried in rounds of attempts.
 */
@Entity('webhook_deliveries')
export class WebhookDeliveryEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('text', { default: 'evaluation.completed' })
  type: DeliveryType;

  @Column('uuid', { name: 'event_id', nullable: true, unique: true })
  eventId: string | null;

  @Column('uuid', { name: 'evaluation_id', nullable: true })
  evaluationId: string | null;

  @Column('uuid', { name: 'simulation_id', nullable: true, unique: true })
  simulationId: string | null;

  @Column('uuid', { name: 'alert_id', nullable: true, unique: true })
  alertId: string | null;

  @Column('jsonb')
  payload: Record<string, unknown>;

  @Column('text', { default: 'pending' })
  status: DeliveryStatus;

  @Column('integer', { default: 0 })
  attempts: number;

  /** 0 for the first round of sends, then one more per manual redelivery (part of its job id). */
  @Column('integer', { default: 0 })
  round: number;

  @Column('integer', { name: 'last_status_code', nullable: true })
  lastStatusCode: number | null;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  @Column('timestamptz', { name: 'next_attempt_at', nullable: true })
  nextAttemptAt: Date | null;

  /** An attempt's claim on the row: no other attempt sends it until then. */
  @Column('timestamptz', { name: 'claimed_until', nullable: true })
  claimedUntil: Date | null;

  /** The token of the attempt holding (or last holding) the claim; only it renews or records. */
  @Column('uuid', { name: 'claim_owner', nullable: true })
  claimOwner: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'clock_timestamp()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'clock_timestamp()' })
  updatedAt: Date;
}
