import { defineStatement } from './statement.js';

interface KeyParams {
  userId: string;
  surface: string;
  key: string;
}

export const deleteExpiredKey = defineStatement<KeyParams>({
  name: 'idempotency.deleteExpiredKey',
  sql: `DELETE FROM idempotency_keys WHERE user_id = :userId AND surface = :surface AND key = :key AND expires_at < now()`,
});

/** A row only when this call claimed the key. */
export const claimKey = defineStatement<KeyParams & { ttlHours: number }, { claimed: number }>({
  name: 'idempotency.claimKey',
  sql: `
    INSERT INTO idempotency_keys (user_id, surface, key, expires_at)
    VALUES (:userId, :surface, :key, now() + make_interval(hours => :ttlHours))
    ON CONFLICT DO NOTHING RETURNING 1 AS claimed`,
});

/** The claim as another call finds it: both result columns (the surface picks one) and its age. */
export const findClaim = defineStatement<
  KeyParams,
  { evaluationId: string | null; eventId: string | null; ageMs: number }
>({
  name: 'idempotency.findClaim',
  sql: `
    SELECT evaluation_id AS "evaluationId", event_id AS "eventId",
           (extract(epoch FROM now() - created_at) * 1000)::float8 AS "ageMs"
      FROM idempotency_keys WHERE user_id = :userId AND surface = :surface AND key = :key`,
});

/** The claim done: what the key stands for, in its kind's column. */
export const completeClaim = {
  evaluation: defineStatement<KeyParams & { resultId: string }>({
    name: 'idempotency.complete.evaluation',
    sql: `
      UPDATE idempotency_keys SET evaluation_id = :resultId
       WHERE user_id = :userId AND surface = :surface AND key = :key`,
  }),
  event: defineStatement<KeyParams & { resultId: string }>({
    name: 'idempotency.complete.event',
    sql: `
      UPDATE idempotency_keys SET event_id = :resultId
       WHERE user_id = :userId AND surface = :surface AND key = :key`,
  }),
} as const;

/** The owner gives its claim up, whatever its state. */
export const releaseOwnedClaim = defineStatement<KeyParams>({
  name: 'idempotency.release.owned',
  sql: `DELETE FROM idempotency_keys WHERE user_id = :userId AND surface = :surface AND key = :key`,
});

/** A takeover drops the claim only while it has no result of its kind and is older than `olderThanMs`. */
export const releaseStaleClaim = {
  evaluation: defineStatement<KeyParams & { olderThanMs: number }>({
    name: 'idempotency.release.staleEvaluation',
    sql: `
      DELETE FROM idempotency_keys
       WHERE user_id = :userId AND surface = :surface AND key = :key AND evaluation_id IS NULL
         AND created_at < now() - make_interval(secs => :olderThanMs::float8 / 1000)`,
  }),
  event: defineStatement<KeyParams & { olderThanMs: number }>({
    name: 'idempotency.release.staleEvent',
    sql: `
      DELETE FROM idempotency_keys
       WHERE user_id = :userId AND surface = :surface AND key = :key AND event_id IS NULL
         AND created_at < now() - make_interval(secs => :olderThanMs::float8 / 1000)`,
  }),
} as const;

export const deleteExpiredKeys = defineStatement({
  name: 'idempotency.deleteExpired',
  sql: `DELETE FROM idempotency_keys WHERE expires_at < now()`,
});
