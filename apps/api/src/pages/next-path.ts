const MAX_NEXT_PATH_LENGTH = 4000;

/**
 * Where to go after signing in: a path on this origin only (`/oauth/authorize?...`), never a full
 * URL, a scheme-relative `//host`, a backslash, or whitespace and control characters (browsers drop
 * tabs and newlines, so `/\t/host` would become `//host`): the sign-in page is no open redirect.
 * Characters beyond ASCII are percent-encoded (as UTF-8), since the path becomes a Location header
 * and Node refuses a header holding them: sign-in must never fail over where it sends the user.
 */
export function safeNextPath(next: unknown): string | null {
  if (typeof next !== 'string' || next.length > MAX_NEXT_PATH_LENGTH) return null;
  if (!next.startsWith('/') || next.startsWith('//') || /[\\\s\u0000-\u001f\u007f]/.test(next)) return null;
  const encoded = next.replace(/[^\u0020-\u007e]+/g, percentEncode);
  return encoded.length > MAX_NEXT_PATH_LENGTH ? null : encoded;
}

/** UTF-8 percent-encoding; Buffer turns a lone surrogate into U+FFFD where encodeURIComponent throws. */
function percentEncode(run: string): string {
  return [...Buffer.from(run, 'utf8')]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}
