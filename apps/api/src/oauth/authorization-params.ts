import { AuthorizationPageError, type AuthorizationParams } from '@app/oauth';

const NAMES = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const;

/** The authorization request's parameters from a query or a form; one sent twice is refused (RFC 6749 §3.1). */
export function authorizationParams(source: unknown): AuthorizationParams {
  const fields = (typeof source === 'object' && source !== null ? source : {}) as Record<string, unknown>;
  const params: AuthorizationParams = {};
  for (const name of NAMES) {
    const value = fields[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > 4000) {
      throw new AuthorizationPageError(`The request's ${name} parameter is malformed or repeated.`);
    }
    params[name] = value;
  }
  return params;
}

export function toQuery(params: AuthorizationParams): string {
  return new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => !!entry[1]),
  ).toString();
}
