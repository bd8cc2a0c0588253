import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The hosts each user has approved an OAuth client from (a client ID metadata document's host, or
 * a registered client's redirect host), so the consent page can mark a host the user meets for the
 * first time. Kept apart from grants, which are purged a day after they are revoked: disconnecting
 * a client does not make its host new again. Existing approvals count for every redirect host their
 * client registered (which one each approval used is not recorded).
 */
export class OAuthApprovedHosts1795751300000 implements MigrationInterface {
  name = 'OAuthApprovedHosts1795751300000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE oauth_approved_hosts (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        host text NOT NULL,
        first_approved_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, host)
      )`);
    // An http(s) URI's host name (lower case, no port), or a private-use scheme with its colon.
    await db.query(`
      INSERT INTO oauth_approved_hosts (user_id, host, first_approved_at)
      SELECT g.user_id, h.host, min(g.created_at)
        FROM oauth_grants g
        JOIN oauth_clients c ON c.id = g.client_id
        CROSS JOIN LATERAL (
          SELECT lower(CASE WHEN u ~* '^https?://'
                            THEN substring(u FROM '^[A-Za-z]+://(\\[[^]/]*\\]|[^:/?#]*)')
                            ELSE substring(u FROM '^([A-Za-z][A-Za-z0-9+.-]*:)') END) AS host
            FROM unnest(c.redirect_uris) u
        ) h
       WHERE h.host IS NOT NULL AND h.host <> ''
       GROUP BY g.user_id, h.host`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE oauth_approved_hosts`);
  }
}
