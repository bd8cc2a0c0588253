import { defineStatement } from './statement.js';

/** Records use at most once a minute per key, so a hot key does not write on every request. */
export const touchApiKey = defineStatement<{ id: string }>({
  name: 'apiKeys.touchLastUsed',
  sql: `
    UPDATE api_keys SET last_used_at = now()
     WHERE id = :id AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
});
