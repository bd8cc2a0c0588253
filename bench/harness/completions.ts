import type pg from 'pg';
import { LEXICAL_MODEL_ID } from '@app/domain';
import type { Client } from '../../test/support/client.js';
import { sleep } from './log.js';
import type { ReceiverStats } from './serve-receiver.js';

/** What the end of an inbound run checks: every accepted event judged once and delivered once. */
export interface Verification {
  events: number;
  completions: number;
  duplicates: number;
  badSignatures: number;
  /** Events without exactly one evaluation. */
  eventsNotJudgedOnce: number;
  deliveriesSucceeded: number;
  deliveriesRetried: number;
  /** Gateway errors, and judgments by the local stand-in instead of the fake gateway. */
  gatewayFailures: number;
  workerWarnings: number;
}

/** The tenant's completion endpoint, pointed at the receiver, which then learns its secret. */
export async function saveEndpoint(tenant: Client, receiverUrl: string): Promise<void> {
  const saved = await tenant.post<{ secret: string }>('/api/webhook-endpoints', {
    url: `${receiverUrl}/completions`,
  });
  if (saved.status !== 201) throw new Error(`saving the endpoint answered ${saved.status}`);
  const response = await fetch(`${receiverUrl}/secret`, { method: 'PUT', body: saved.body.secret });
  if (response.status !== 204) throw new Error('the receiver did not take the secret');
}

/** The receiver's counts and the scratch database's inbound events, evaluations and deliveries. */
export class Completions {
  constructor(
    /** On the scratch database. */
    private readonly db: pg.Client,
    private readonly receiverUrl: string,
  ) {}

  async receiver(): Promise<ReceiverStats> {
    return (await (await fetch(`${this.receiverUrl}/stats`)).json()) as ReceiverStats;
  }

  /** Epoch ms at which each new event's first completion arrived, in arrival order. */
  async arrivals(): Promise<number[]> {
    return (await (await fetch(`${this.receiverUrl}/arrivals`)).json()) as number[];
  }

  /** Epoch ms of the latest evaluation the worker recorded (its clock, the same machine's). */
  async lastJudgedAt(): Promise<number | null> {
    const { rows } = await this.db.query<{ at: Date | null }>(
      'SELECT max(created_at) AS at FROM evaluations WHERE inbound_event_id IS NOT NULL',
    );
    return rows[0].at ? rows[0].at.getTime() : null;
  }

  /** Accepted events, read until the count stops moving: requests cut off by a load's end still commit. */
  async settledEventCount(): Promise<number> {
    const count = async () =>
      Number((await this.db.query<{ n: string }>('SELECT count(*) AS n FROM inbound_events')).rows[0].n);
    let previous = await count();
    for (;;) {
      await sleep(250);
      const current = await count();
      if (current === previous) return current;
      previous = current;
    }
  }

  async verify(workerWarnings: number): Promise<Verification> {
    const receiver = await this.receiver();
    const { rows } = await this.db.query<Record<string, string>>(
      `
      SELECT (SELECT count(*) FROM inbound_events) AS events,
             (SELECT count(*) FROM inbound_events e
               WHERE (SELECT count(*) FROM evaluations v WHERE v.inbound_event_id = e.id) <> 1) AS not_once,
             (SELECT count(*) FROM webhook_deliveries WHERE status = 'succeeded') AS succeeded,
             (SELECT count(*) FROM webhook_deliveries WHERE attempts > 1) AS retried,
             (SELECT count(*) FROM evaluations WHERE inbound_event_id IS NOT NULL
                 AND (result->'reviewReasons' ?| array['gateway_auth', 'gateway_unavailable', 'invalid_model_output']
                      OR model_id = $1)
             ) AS gateway_failures`,
      // The apps' local stand-in, used when no gateway is configured, answers at once: not a run.
      [LEXICAL_MODEL_ID],
    );
    const row = rows[0];
    return {
      events: Number(row.events),
      completions: receiver.events,
      duplicates: receiver.duplicates,
      badSignatures: receiver.badSignatures,
      eventsNotJudgedOnce: Number(row.not_once),
      deliveriesSucceeded: Number(row.succeeded),
      deliveriesRetried: Number(row.retried),
      gatewayFailures: Number(row.gateway_failures),
      workerWarnings,
    };
  }
}

export function verificationLine(v: Verification): string {
  return (
    `Checked at the end: ${v.completions} of ${v.events} events completed at the receiver ` +
    `(${v.duplicates} duplicate deliveries, ${v.badSignatures} bad signatures); ` +
    `${v.eventsNotJudgedOnce} events without exactly one evaluation; ` +
    `${v.deliveriesSucceeded} deliveries succeeded (${v.deliveriesRetried} needed more than one attempt); ` +
    `${v.gatewayFailures} gateway failures; ${v.workerWarnings} worker log lines at warn or above.`
  );
}
