import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Prefixes tell the kinds apart in a leak report; 32 random bytes make guessing hopeless. */
export type CredentialKind = 'tj_at_' | 'tj_rt_' | 'tj_code_' | 'tj_cs_';

export function newCredential(kind: CredentialKind): string {
  return `${kind}${randomBytes(32).toString('base64url')}`;
}

/** Codes, tokens and client secrets are stored and looked up only by this hash. */
export function hashCredential(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

export function credentialMatches(value: string, hash: string): boolean {
  const given = Buffer.from(hashCredential(value));
  const stored = Buffer.from(hash);
  return given.length === stored.length && timingSafeEqual(given, stored);
}
