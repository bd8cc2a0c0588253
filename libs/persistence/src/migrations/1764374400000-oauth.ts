import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The MCP interface's OAuth 2.1 authorization server: registered clients, grants (one per
 * approval: the family every code and token of it belongs to, revoked as a whole), one-time
 * codes and tokens. Codes and tokens are stored only as SHA-256 hashes.
 */
export class OAuth1764374400000 implements MigrationInterface {
  name = 'OAuth1764374400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE oauth_clients (
        id text PRIMARY KEY,
        name text NOT NULL,
        redirect_uris text[] NOT NULL,
        token_endpoint_auth_method text NOT NULL,
        secret_hash text,
        metadata jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE oauth_grants (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
        scopes text[] NOT NULL,
        resource text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await db.query(
      `CREATE INDEX oauth_grants_user_idx ON oauth_grants (user_id, client_id) WHERE revoked_at IS NULL`,
    );
    await db.query(`
      CREATE TABLE oauth_codes (
        code_hash text PRIMARY KEY,
        grant_id uuid NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
        redirect_uri text NOT NULL,
        code_challenge text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await db.query(`
      CREATE TABLE oauth_tokens (
        token_hash text PRIMARY KEY,
        grant_id uuid NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
        scopes text[] NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX oauth_tokens_grant_idx ON oauth_tokens (grant_id)`);
    await db.query(`CREATE INDEX oauth_tokens_expires_idx ON oauth_tokens (expires_at)`);
    await db.query(`CREATE INDEX oauth_codes_expires_idx ON oauth_codes (expires_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE oauth_tokens`);
    await db.query(`DROP TABLE oauth_codes`);
    await db.query(`DROP TABLE oauth_grants`);
    await db.query(`DROP TABLE oauth_clients`);
  }
}
