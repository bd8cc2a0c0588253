/**
 * Where to go after signing in: a path on this origin only (`/oauth/authorize?...`), never a full
 * URL, a scheme-relative `//host` or a backslash trick, so the sign-in page is no open redirect.
 */
export function safeNextPath(next: unknown): string | null {
  if (typeof next !== 'string' || next.length > 4000) return null;
  if (!next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return null;
  return next;
}
