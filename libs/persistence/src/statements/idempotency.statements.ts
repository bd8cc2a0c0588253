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
