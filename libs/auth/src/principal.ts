import type { Permission } from '@app/domain';

/** Who is calling, resolved from the credential; the user id never comes from the request body. */
export type Principal =
  | { kind: 'session'; userId: string; permissions: readonly Permission[] }
  | { kind: 'apiKey'; userId: string; keyId: string; permissions: readonly Permission[] }
  | { kind: 'oauth'; userId: string; clientId: string; grantId: string; permissions: readonly Permission[] };

export const SESSION_COOKIE = 'tj_session';
