import type pg from 'pg';

const CHUNK = 100_000;

export interface SeedTarget {
  /** A published pack: the rows belong to its owner and its live version. */
  packId: string;
  rows: number;
  /** The rows spread evenly over this many days back from now. */
  days: number;
  /**
   * `same` (the default): every ticket is "Charged twice", without an external id. `varied`: row n
   * has the external id `T-` and n on 8 digits (9 rows in 10) and a subject of a few words from a
   * small vocabulary: "Refund for order 412" in 1 row of 5 (the common word), "zebracorn" in 1 of
   * 100,000 (the rare word), as the search benchmark needs.
   */
  tickets?: 'same' | 'varied';
}

const SAME_TICKET = `'{"subject":"Charged twice","customerMessage":"Please refund"}'::jsonb`;

const VARIED_TICKET = `jsonb_strip_nulls(jsonb_build_object(
                'externalId', CASE WHEN n % 10 < 9 THEN 'T-' || lpad(n::text, 8, '0') END,
                'subject', CASE WHEN n % 5 = 0 THEN 'Refund for order '
                                ELSE (ARRAY['Login problem', 'Invoice question', 'Shipping delay', 'Password reset'])[1 + n % 4] || ' order '
                           END || (n % 997)::text || CASE WHEN n % 100000 = 77 THEN ' zebracorn' ELSE '' END,
                'customerMessage', 'Please help'))`;

/**
 * Many evaluations at once, for the benchmarks and tests that need a large history: bulk inserts
 * with generate_series, one statement per chunk: ~60% accept, 30% review, 10% reject, every tenth
 * review labeled. The per-day counters fill through the same trigger as in production.
 */
export async function seedEvaluations(
  db: pg.Client,
  { packId, rows, days, tickets = 'same' }: SeedTarget,
  progress: (seeded: number) => void = () => undefined,
): Promise<void> {
  const owner = await db.query<{ user_id: string; live_version_id: string }>(
    'SELECT user_id, live_version_id FROM packs WHERE id = $1',
    [packId],
  );
  if (!owner.rows[0]?.live_version_id) throw new Error(`pack ${packId} is not published`);
  const { user_id: userId, live_version_id: versionId } = owner.rows[0];
  for (let start = 0; start < rows; start += CHUNK) {
    const count = Math.min(CHUNK, rows - start);
    await db.query(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id,
                                latency_ms, input_tokens, output_tokens, created_at, labeled, selected_probabilities)
       SELECT gen_random_uuid(), $1, $2, $3, 'api', s.status, ${tickets === 'varied' ? VARIED_TICKET : SAME_TICKET},
              jsonb_build_object('status', s.status, 'answers',
                '{"department":{"type":"choice","choice":"billing","probabilities":{"billing":0.5,"technical":0.3,"legal":0.2}},"abusive":{"type":"boolean","probability":0.1}}'::jsonb,
                'reviewReasons', '[]'::jsonb, 'modelId', 'bench-model', 'latencyMs', 40 + n % 50),
              'bench-model', 40 + n % 50, 300 + n % 100, 40 + n % 10,
              now() - (n::float8 / $5) * ($7::int * interval '1 day'),
              s.status = 'review' AND n % 10 = 0, '{"department":0.5,"abusive":0.9}'::jsonb
         FROM generate_series($4::int, $4::int + $6::int - 1) AS n,
              LATERAL (SELECT CASE WHEN n % 10 < 6 THEN 'accept' WHEN n % 10 < 9 THEN 'review' ELSE 'reject' END AS status) s`,
      [userId, packId, versionId, start, rows, count, days],
    );
    progress(start + count);
  }
}
