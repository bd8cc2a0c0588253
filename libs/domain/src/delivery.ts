/**
 * The life of a completion delivery, apart from where it is stored: `pending` until an attempt
 * succeeds (`succeeded`) or the round's last attempt fails (`failed`); a manual redelivery of a
 * finished delivery starts a new round, pending again, with a fresh budget of attempts.
 */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryProgress {
  /** Attempts made in all, every round included. */
  attempts: number;
  /** 0 for the first round, then one per manual redelivery (set to `attempts + 1` when it starts). */
  round: number;
}

export interface AttemptPlan {
  /** Attempts already made in this round. */
  roundAttempts: number;
  /** Whether this attempt is the round's last: a failure then ends the delivery as `failed`. */
  final: boolean;
}

/**
 * This attempt's place in its round. The row's count wins over the job's (`attemptsMade`): a job
 * recreated after Redis lost the first starts counting again, the row does not.
 */
export function planAttempt(
  delivery: DeliveryProgress,
  attemptsMade: number,
  maxAttempts: number,
): AttemptPlan {
  const roundAttempts = Math.max(attemptsMade, delivery.attempts - Math.max(0, delivery.round - 1));
  return { roundAttempts, final: roundAttempts + 1 >= maxAttempts };
}

/** The status after an attempt. */
export function statusAfterAttempt(ok: boolean, final: boolean): DeliveryStatus {
  if (ok) return 'succeeded';
  return final ? 'failed' : 'pending';
}

/** An attempt's outcome as the caller saw it. */
export interface AttemptOutcome {
  ok: boolean;
  /** The round's last attempt (`AttemptPlan.final`). */
  final: boolean;
  statusCode: number | null;
  error: string | null;
  /** When the next attempt would be due, were this one to fail and not be final. */
  nextAttemptAt: Date | null;
}

/** What an attempt leaves on the delivery: its status, and a next attempt only while one remains. */
export interface AttemptRecord {
  status: DeliveryStatus;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
}

export function recordOfAttempt(outcome: AttemptOutcome): AttemptRecord {
  const status = statusAfterAttempt(outcome.ok, outcome.final);
  const nextAttemptAt = status === 'pending' ? outcome.nextAttemptAt : null;
  return { status, statusCode: outcome.statusCode, error: outcome.error, nextAttemptAt };
}

/** When the next attempt is due after a failed one: exponential from `backoffMs`, per round. */
export function nextAttemptAfter(now: Date, backoffMs: number, roundAttempts: number): Date {
  return new Date(now.getTime() + backoffMs * 2 ** roundAttempts);
}

/** A pending delivery has its attempts scheduled already; a second round would send it twice. */
export function canRedeliver(status: DeliveryStatus): boolean {
  return status !== 'pending';
}

/** A delivery's status and how long the claim on it still runs, as found when a claim failed. */
export interface DeliveryClaimState {
  status: DeliveryStatus;
  claimRemainingMs: number;
}

/** Past the claim's end, so the run that retries finds it lapsed rather than about to. */
const CLAIM_RETRY_MARGIN_MS = 250;

/**
 * After a run failed to claim its delivery: null when there is nothing left to send (gone, or no
 * longer pending), else how long to wait before running again. Another attempt holds the claim;
 * if it dies without recording, the retry finds the claim lapsed and sends.
 */
export function retryAfterClaimRefused(state: DeliveryClaimState | null): number | null {
  if (!state || state.status !== 'pending') return null;
  return Math.ceil(state.claimRemainingMs) + CLAIM_RETRY_MARGIN_MS;
}
