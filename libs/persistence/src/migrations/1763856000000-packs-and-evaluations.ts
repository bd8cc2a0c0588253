import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PacksAndEvaluations1763856000000 implements MigrationInterface {
  name = 'PacksAndEvaluations1763856000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE packs (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        draft_version_id uuid NOT NULL,
        live_version_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await db.query(
      `CREATE INDEX packs_user_idx ON packs (user_id, updated_at DESC) WHERE deleted_at IS NULL`,
    );
    await db.query(`
      CREATE TABLE pack_versions (
        id uuid PRIMARY KEY,
        pack_id uuid NOT NULL REFERENCES packs (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        document jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        published_at timestamptz
      )`);
    await db.query(`CREATE INDEX pack_versions_pack_idx ON pack_versions (pack_id, created_at DESC)`);
    // Packs and their versions point at each other; checked at commit so both rows can be inserted.
    await db.query(`
      ALTER TABLE packs
        ADD CONSTRAINT packs_draft_version_fk FOREIGN KEY (draft_version_id) REFERENCES pack_versions (id) DEFERRABLE INITIALLY DEFERRED,
        ADD CONSTRAINT packs_live_version_fk FOREIGN KEY (live_version_id) REFERENCES pack_versions (id) DEFERRABLE INITIALLY DEFERRED`);
    await db.query(`
      CREATE TABLE evaluations (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        pack_id uuid NOT NULL REFERENCES packs (id) ON DELETE CASCADE,
        pack_version_id uuid NOT NULL REFERENCES pack_versions (id) ON DELETE CASCADE,
        source text NOT NULL,
        status text NOT NULL,
        redacted_ticket jsonb NOT NULL,
        result jsonb NOT NULL,
        model_id text NOT NULL,
        latency_ms integer NOT NULL,
        input_tokens integer NOT NULL DEFAULT 0,
        output_tokens integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    // Keyset pagination, newest first, for each list filter.
    await db.query(`CREATE INDEX evaluations_user_idx ON evaluations (user_id, created_at DESC, id DESC)`);
    await db.query(
      `CREATE INDEX evaluations_user_pack_idx ON evaluations (user_id, pack_id, created_at DESC, id DESC)`,
    );
    await db.query(
      `CREATE INDEX evaluations_user_status_idx ON evaluations (user_id, status, created_at DESC, id DESC)`,
    );
    await db.query(`CREATE INDEX evaluations_pack_version_idx ON evaluations (pack_version_id)`);
    await db.query(`
      CREATE TABLE idempotency_keys (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        surface text NOT NULL,
        key text NOT NULL,
        evaluation_id uuid REFERENCES evaluations (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, surface, key)
      )`);
    await db.query(`CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE idempotency_keys`);
    await db.query(`DROP TABLE evaluations`);
    await db.query(
      `ALTER TABLE packs DROP CONSTRAINT packs_draft_version_fk, DROP CONSTRAINT packs_live_version_fk`,
    );
    await db.query(`DROP TABLE pack_versions`);
    await db.query(`DROP TABLE packs`);
  }
}
