import { isPermission, PERMISSIONS, type Permission } from '@app/domain';
import { OAuthError } from './oauth-error.js';

/** The scopes are the six permission names: a token holds what its scopes name, as a session holds all. */
export const OAUTH_SCOPES: readonly Permission[] = PERMISSIONS;

/** A space-separated scope parameter; none asked means all six. */
export function parseScopes(scope: string | undefined): Permission[] {
  const asked = (scope ?? '').split(' ').filter(Boolean);
  if (!asked.length) return [...OAUTH_SCOPES];
  const unknown = asked.find((name) => !isPermission(name));
  if (unknown !== undefined) {
    throw new OAuthError(
      'invalid_scope',
      `unknown scope "${unknown.slice(0, 64)}"; scopes are ${OAUTH_SCOPES.join(' ')}`,
    );
  }
  return OAUTH_SCOPES.filter((name) => asked.includes(name));
}
