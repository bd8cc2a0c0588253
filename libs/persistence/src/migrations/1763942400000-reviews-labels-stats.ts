import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ReviewsLabelsStats1763942400000 implements MigrationInterface {
  name = 'ReviewsLabelsStats1763942400000';

  async up(db: QueryRunner): Promise<void> {
    // `labeled` mirrors "has at least one label" so the review queue and its count stay index scans.
    await db.query(`ALTER TABLE evaluations ADD COLUMN labeled boolean NOT NULL DEFAULT false`);
    await db.query(
      `CREATE INDEX evaluations_reviews_idx ON evaluations (user_id, created_at DESC, id DESC) WHERE status = 'review'`,
    );
    await db.query(
      `CREATE INDEX evaluations_reviews_pack_idx ON evaluations (user_id, pack_id, created_at DESC, id DESC) WHERE status = 'review'`,
    );
    await db.query(
      `CREATE INDEX evaluations_unlabeled_reviews_idx ON evaluations (user_id) WHERE status = 'review' AND NOT labeled`,
    );
    await db.query(`
      CREATE TABLE labels (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        evaluation_id uuid NOT NULL REFERENCES evaluations (id) ON DELETE CASCADE,
        question_id text NOT NULL,
        answer jsonb NOT NULL,
        note text NOT NULL DEFAULT '',
        agreement boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT labels_evaluation_question_key UNIQUE (evaluation_id, question_id)
      )`);
    await db.query(`CREATE INDEX labels_user_idx ON labels (user_id)`);

    // Per user and UTC day counters, kept by a statement-level trigger, so stats read ~30 rows
    // instead of aggregating every evaluation.
    await db.query(`
      CREATE TABLE evaluation_daily_stats (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        day date NOT NULL,
        accept integer NOT NULL DEFAULT 0,
        review integer NOT NULL DEFAULT 0,
        reject integer NOT NULL DEFAULT 0,
        latency_ms_sum bigint NOT NULL DEFAULT 0,
        input_tokens bigint NOT NULL DEFAULT 0,
        output_tokens bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, day)
      )`);
    await db.query(`
      CREATE FUNCTION evaluation_daily_stats_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO evaluation_daily_stats AS s (user_id, day, accept, review, reject, latency_ms_sum, input_tokens, output_tokens)
        SELECT user_id, (created_at AT TIME ZONE 'UTC')::date,
               count(*) FILTER (WHERE status = 'accept'), count(*) FILTER (WHERE status = 'review'),
               count(*) FILTER (WHERE status = 'reject'), sum(latency_ms), sum(input_tokens), sum(output_tokens)
          FROM new_rows
         GROUP BY 1, 2
         ORDER BY 1, 2
        ON CONFLICT (user_id, day) DO UPDATE SET
          accept = s.accept + excluded.accept,
          review = s.review + excluded.review,
          reject = s.reject + excluded.reject,
          latency_ms_sum = s.latency_ms_sum + excluded.latency_ms_sum,
          input_tokens = s.input_tokens + excluded.input_tokens,
          output_tokens = s.output_tokens + excluded.output_tokens;
        RETURN NULL;
      END $$`);
    await db.query(`
      CREATE TRIGGER evaluations_daily_stats AFTER INSERT ON evaluations
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION evaluation_daily_stats_add()`);
    await db.query(`
      INSERT INTO evaluation_daily_stats (user_id, day, accept, review, reject, latency_ms_sum, input_tokens, output_tokens)
      SELECT user_id, (created_at AT TIME ZONE 'UTC')::date,
             count(*) FILTER (WHERE status = 'accept'), count(*) FILTER (WHERE status = 'review'),
             count(*) FILTER (WHERE status = 'reject'), sum(latency_ms), sum(input_tokens), sum(output_tokens)
        FROM evaluations GROUP BY 1, 2`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER evaluations_daily_stats ON evaluations`);
    await db.query(`DROP FUNCTION evaluation_daily_stats_add()`);
    await db.query(`DROP TABLE evaluation_daily_stats`);
    await db.query(`DROP TABLE labels`);
    await db.query(`DROP INDEX evaluations_unlabeled_reviews_idx`);
    await db.query(`DROP INDEX evaluations_reviews_pack_idx`);
    await db.query(`DROP INDEX evaluations_reviews_idx`);
    await db.query(`ALTER TABLE evaluations DROP COLUMN labeled`);
  }
}
