/**
 * What the evaluation list's `q` looks for, as its SQL takes it (evaluations.statements.ts):
 * - the ticket's `externalId`, by prefix (an exact id is its own prefix), case-sensitive, on the
 *   btree `evaluations_external_id_idx` as the byte range [prefix, prefixEnd) (COLLATE "C");
 * - the ticket's (redacted) subject, by words: every word of `q` is a word of the subject, the last
 *   one as a word prefix ("refu" finds "refund"), case-insensitive, on the GIN index
 *   `evaluations_subject_words_idx` of `to_tsvector('simple', subject)`.
 * Words are runs of letters and digits; anything else in `q` only separates them, so no text can
 * reach the tsquery syntax.
 */
export interface EvaluationSearchTerms {
  prefix: string;
  /** The least text above every text that starts with `prefix`, in byte order; null when none. */
  prefixEnd: string | null;
  /** The subject's words as a tsquery; null when `q` holds no word. */
  words: string | null;
  /**
   * The same words, the last one whole (no prefix): only for estimating how common they are, since
   * Postgres 15 estimates a prefix (`'refund':*`) from its most common words minus the least
   * common's frequency, which can put a word in 3 subjects of 4 at 2% where the whole word is right.
   */
  wholeWords: string | null;
}

const WORD = /[\p{L}\p{N}]+/gu;
const LAST_CODE_POINT = 0x10ffff;

/**
 * The least text greater than every text starting with `prefix` in byte order, which for UTF-8 is
 * code point order: its last code point raised by one (past the surrogates), after dropping
 * trailing U+10FFFF; null for a prefix made of U+10FFFF alone.
 */
export function prefixEnd(prefix: string): string | null {
  const points = [...prefix];
  while (points.length) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < LAST_CODE_POINT)
      return points.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
  }
  return null;
}

/** The terms of a search; null when `q` is blank (no search). */
export function evaluationSearchTerms(q: string): EvaluationSearchTerms | null {
  const prefix = q.trim();
  if (!prefix) return null;
  const found = prefix.toLowerCase().match(WORD) ?? [];
  const words = found.length
    ? found.map((word, i) => `'${word}'${i === found.length - 1 ? ':*' : ''}`).join(' & ')
    : null;
  const wholeWords = found.length ? found.map((word) => `'${word}'`).join(' & ') : null;
  return { prefix, prefixEnd: prefixEnd(prefix), words, wholeWords };
}
