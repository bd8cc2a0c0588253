import { queryDatabase } from './db.js';

/**
 * An open quality alert on the pack, inserted directly: the worker opens real ones from planted
 * data (test/e2e/alerts.e2e-spec.ts); route matrices only need one to exist.
 */
export async function insertAlert(packId: string): Promise<string> {
  const [row] = await queryDatabase<{ id: string }>(
    `INSERT INTO quality_alerts (id, user_id, pack_id, rule, question_id, summary, figures, since)
     SELECT gen_random_uuid(), user_id, id, 'gateway_failure_rate', NULL, 'Planted for a route matrix',
            '{"rate":1,"failures":10,"count":10}'::jsonb, now() - interval '15 minutes'
       FROM packs WHERE id = $1
     RETURNING id`,
    [packId],
  );
  if (!row) throw new Error(`no pack ${packId}`);
  return row.id;
}
