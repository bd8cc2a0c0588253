import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The indexes of GET /api/evaluations' new filters (measured by `npm run bench:evaluations`, see
 * docs/performance.md):
 * - `packVersionId`: the version index gains the list's order, (pack_version_id, created_at, id),
 *   in place of (pack_version_id): as many index entries per insert as before, and a version's page
 *   is read in order instead of sorted. A version belongs to one user, so user_id is not needed.
 * - `q` on the external id: a btree (user_id, externalId COLLATE "C"), byte order, for exact ids
 *   and prefixes. Neither text_pattern_ops nor partial: the planner estimates the prefix range
 *   from the index expression's histogram only for a `<` in the histogram's order and only for a
 *   non-partial index; without it, it assumed 0.5% of the rows and walked a user's 2,000,000 rows
 *   for a rare word (9 to 15 s).
 * - `q` on the subject: a GIN word index of to_tsvector('simple', subject), a few entries a row
 *   (where a trigram index adds one per three characters); fastupdate off, so an insert never pays
 *   for flushing the pending list of everyone else's.
 */
/** The two search indexes (exported for the benchmark, which times inserts without and with them). */
export const SEARCH_INDEXES = [
  `CREATE INDEX evaluations_external_id_idx ON evaluations (user_id, ((redacted_ticket ->> 'externalId') COLLATE "C"))`,
  `CREATE INDEX evaluations_subject_words_idx ON evaluations USING gin (to_tsvector('simple'::regconfig, redacted_ticket ->> 'subject')) WITH (fastupdate = off)`,
];

export class EvaluationSearch1795750411000 implements MigrationInterface {
  name = 'EvaluationSearch1795750411000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX evaluations_pack_version_created_idx ON evaluations (pack_version_id, created_at DESC, id DESC)`,
    );
    await db.query(`DROP INDEX evaluations_pack_version_idx`);
    for (const index of SEARCH_INDEXES) await db.query(index);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX evaluations_subject_words_idx`);
    await db.query(`DROP INDEX evaluations_external_id_idx`);
    await db.query(`CREATE INDEX evaluations_pack_version_idx ON evaluations (pack_version_id)`);
    await db.query(`DROP INDEX evaluations_pack_version_created_idx`);
  }
}
