import { describe, expect, it } from '@jest/globals';
import { evaluationSearchTerms, prefixEnd } from './evaluation-search.js';

describe('evaluationSearchTerms', () => {
  it('searches the external id by the text as given and the subject by its words, the last a prefix', () => {
    expect(evaluationSearchTerms('  Refund Twice ')).toEqual({
      prefix: 'Refund Twice',
      prefixEnd: 'Refund Twicf',
      words: "'refund' & 'twice':*",
      wholeWords: "'refund' & 'twice'",
    });
  });

  it('keeps only letters and digits in words, so no text reaches the tsquery syntax', () => {
    expect(evaluationSearchTerms("a'b | c:* & !(d) \\e")?.words).toBe("'a' & 'b' & 'c' & 'd' & 'e':*");
    expect(evaluationSearchTerms('Überweisung 2024')?.words).toBe("'überweisung' & '2024':*");
    expect(evaluationSearchTerms('.*[](){}')).toEqual({
      prefix: '.*[](){}',
      prefixEnd: '.*[](){~',
      words: null,
      wholeWords: null,
    });
  });

  it('is no search for blank text', () => {
    expect(evaluationSearchTerms('')).toBeNull();
    expect(evaluationSearchTerms(' \t ')).toBeNull();
  });
});

describe('prefixEnd', () => {
  const starts = (text: string, prefix: string) =>
    Buffer.compare(Buffer.from(text), Buffer.from(prefix)) >= 0;
  const below = (text: string, end: string) => Buffer.compare(Buffer.from(text), Buffer.from(end)) < 0;

  it('is above every text with the prefix and below the next texts, in byte order', () => {
    for (const prefix of ['T-1', 'a', 'z\u{10FFFF}', '\uD7FF', 'é', '\u{1F600}']) {
      const end = prefixEnd(prefix)!;
      for (const text of [prefix, `${prefix}\u{10FFFF}\u{10FFFF}`, `${prefix}0`, `${prefix}~`]) {
        expect(starts(text, prefix) && below(text, end)).toBe(true);
      }
      expect(below(end, prefix)).toBe(false);
    }
    expect(prefixEnd('z\u{10FFFF}')).toBe('{');
    expect(prefixEnd('\uD7FF')).toBe('\uE000');
  });

  it('is null when no text is above (a prefix of U+10FFFF alone)', () => {
    expect(prefixEnd('\u{10FFFF}\u{10FFFF}')).toBeNull();
  });
});
