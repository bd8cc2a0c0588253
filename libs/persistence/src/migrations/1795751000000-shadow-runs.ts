import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shadow runs (docs/shadow-runs.md): a candidate pack version judging a sample of live traffic
 * beside the live one. `shadow_runs` holds each run, its sampling cursor and counters; at most one
 * active run per pack (a partial unique index, so two starts racing get one run and one 409).
 * `shadow_judgments` holds one row per sampled live evaluation, written `pending` when the sampler
 * draws it and filled in when the worker has judged it; (run, evaluation) is its key, so a job run
 * twice stores once. `pack_versions.frozen_at` marks a draft frozen for a run: a version that is
 * not published and not the draft, left out of the pack's version list.
 */
export class ShadowRuns1795751000000 implements MigrationInterface {
  name = 'ShadowRuns1795751000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE pack_versions ADD COLUMN frozen_at timestamptz`);
    await db.query(`
      CREATE TABLE shadow_runs (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        pack_id uuid NOT NULL REFERENCES packs (id) ON DELETE CASCADE,
        pack_version_id uuid NOT NULL REFERENCES pack_versions (id),
        sample_rate double precision NOT NULL
          CONSTRAINT shadow_runs_sample_rate_check CHECK (sample_rate >= 0 AND sample_rate <= 1),
        max_judgments integer CONSTRAINT shadow_runs_max_judgments_check CHECK (max_judgments > 0),
        status text NOT NULL DEFAULT 'active'
          CONSTRAINT shadow_runs_status_check CHECK (status IN ('active', 'stopped')),
        stop_reason text
          CONSTRAINT shadow_runs_stop_reason_check CHECK (stop_reason IN ('requested', 'max_judgments', 'pack_deleted')),
        sampled integer NOT NULL DEFAULT 0,
        judged integer NOT NULL DEFAULT 0,
        scanned_until timestamptz NOT NULL,
        scanned_until_id uuid,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        stopped_at timestamptz,
        CONSTRAINT shadow_runs_stopped_check CHECK ((status = 'stopped') = (stopped_at IS NOT NULL))
      )`);
    await db.query(
      `CREATE UNIQUE INDEX shadow_runs_one_active_key ON shadow_runs (pack_id) WHERE status = 'active'`,
    );
    await db.query(
      `CREATE INDEX shadow_runs_pack_idx ON shadow_runs (user_id, pack_id, created_at DESC, id DESC)`,
    );
    await db.query(`
      CREATE TABLE shadow_judgments (
        shadow_run_id uuid NOT NULL REFERENCES shadow_runs (id) ON DELETE CASCADE,
        evaluation_id uuid NOT NULL REFERENCES evaluations (id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        state text NOT NULL DEFAULT 'pending'
          CONSTRAINT shadow_judgments_state_check CHECK (state IN ('pending', 'judged', 'failed')),
        live_status text,
        status text,
        result jsonb,
        answer_pairs jsonb,
        model_id text,
        latency_ms integer,
        input_tokens integer,
        output_tokens integer,
        cost_usd double precision,
        sampled_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        judged_at timestamptz,
        PRIMARY KEY (shadow_run_id, evaluation_id)
      )`);
    await db.query(
      `CREATE INDEX shadow_judgments_pending_idx ON shadow_judgments (sampled_at) WHERE state = 'pending'`,
    );
    await db.query(`CREATE INDEX shadow_judgments_evaluation_idx ON shadow_judgments (evaluation_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE shadow_judgments`);
    await db.query(`DROP TABLE shadow_runs`);
    await db.query(`ALTER TABLE pack_versions DROP COLUMN frozen_at`);
  }
}
