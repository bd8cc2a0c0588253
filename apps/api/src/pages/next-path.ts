/**
 * Where to go after signing in: a path on this origin only (`/oauth/authorize?...`), never a full
 * URL, a scheme-relative `//host`, a backslash, or whitespace and control characters (browsers drop
 * tabs and newlines, so `/\t/host` would become `//host`): the sign-in page is no open redirect.
 */
export function safeNextPath(next: unknown): string | null {
  if (typeof next !== 'string' || next.length > 4000) return null;
  if (!next.startsWith('/') || next.startsWith('//') || /[\\\s\u0000-\u001f\u007f]/.test(next)) return null;
  return next;
}
