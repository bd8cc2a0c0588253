import { defineStatement } from './statement.js';

/** Saves the user's one endpoint, replacing any earlier one (new id, new secret). */
export const saveEndpoint = defineStatement<
  { id: string; userId: string; url: string; secret: string; requireInboundSignature: boolean },
  { id: string; userId: string; url: string; secret: string; requireInboundSignature: boolean }
>({
  name: 'endpoints.save',
  sql: `
    INSERT INTO webhook_endpoints (id, user_id, url, secret, require_inbound_signature)
    VALUES (:id, :userId, :url, :secret, :requireInboundSignature)
    ON CONFLICT (user_id) DO UPDATE SET id = excluded.id, url = excluded.url, secret = excluded.secret,
      require_inbound_signature = excluded.require_inbound_signature, created_at = now()
    RETURNING id, user_id AS "userId", url, secret, require_inbound_signature AS "requireInboundSignature"`,
});
