import { createHash } from 'node:crypto';

/** RFC 7636: 43 to 128 characters of the unreserved set, for verifiers and S256 challenges alike. */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export function isPkceValue(value: string): boolean {
  return PKCE_VALUE.test(value);
}

/** S256 only: `plain` would hand the verifier to whoever sees the authorization request. */
export function verifiesChallenge(verifier: string, challenge: string): boolean {
  if (!isPkceValue(verifier)) return false;
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}
