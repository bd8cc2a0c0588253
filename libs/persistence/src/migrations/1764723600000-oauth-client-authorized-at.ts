import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a user last approved each OAuth client. Registration is open, so clients nobody ever
 * approved are purged a day after registration; the partial index serves that purge. Existing
 * clients take the time of their newest grant, so a client a user approved is not purged on upgrade.
 */
export class OAuthClientAuthorizedAt1764723600000 implements MigrationInterface {
  name = 'OAuthClientAuthorizedAt1764723600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE oauth_clients ADD COLUMN last_authorized_at timestamptz`);
    await db.query(`
      UPDATE oauth_clients c SET last_authorized_at = (SELECT max(g.created_at) FROM oauth_grants g WHERE g.client_id = c.id)`);
    await db.query(
      `CREATE INDEX oauth_clients_unauthorized_idx ON oauth_clients (created_at) WHERE last_authorized_at IS NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE oauth_clients DROP COLUMN last_authorized_at`);
  }
}
