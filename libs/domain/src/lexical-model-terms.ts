// How `local-lexical-1` reads text: word pieces, stems, bags of terms and their BM25-like ranking.

export type Terms = Map<string, number>;

const STOP_WORDS = new Set(
  (
    'a an the and or but if then so of to in on at by for with from as into onto about than i me my mine we us our ' +
    'you your yours he him his she her it its they them their this that these those is am are was were be been ' +
    'being have has had do does did will would can could should shall may might must not no nor just also very ' +
    'too there here what which who whom how why when where all any some each other such own same only more most ' +
    'again please hi hello hey thanks thank up out over under after before while because until between through ' +
    's t don im ive get got'
  ).split(' '),
);

/** Raw word pieces: Unicode letters (with their combining marks) and digits, lower-cased. */
export function words(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** A light English suffix stripper: "refunds"/"refund", "charged"/"charge", "logging"/"log". */
export function stem(word: string): string {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  let stemmed = word;
  if (stemmed.endsWith('ies') && stemmed.length > 4) stemmed = stemmed.slice(0, -3) + 'y';
  else if (stemmed.endsWith('s') && !/(?:ss|us|is)$/.test(stemmed)) stemmed = stemmed.slice(0, -1);
  const suffix = ['ing', 'ed', 'ly'].find((end) => stemmed.endsWith(end) && stemmed.length - end.length >= 3);
  if (suffix) {
    stemmed = stemmed.slice(0, -suffix.length);
    // "shipped" -> "shipp" -> "ship"; l, s and z stay doubled ("billed" -> "bill").
    if (suffix !== 'ly' && /([b-df-hj-kmnp-rtv-y])\1$/.test(stemmed)) stemmed = stemmed.slice(0, -1);
  }
  if (stemmed.endsWith('e') && stemmed.length > 3) stemmed = stemmed.slice(0, -1);
  return stemmed;
}

export function terms(text: string, skip?: Set<string>): string[] {
  return words(text)
    .filter((word) => !STOP_WORDS.has(word) && (word.length > 1 || !/[a-z]/.test(word)))
    .map(stem)
    .filter((term) => !skip?.has(term));
}

export function countTerms(list: string[]): Terms {
  const counts: Terms = new Map();
  for (const term of list) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** A bag maps each term to its weight; a term seen in several parts keeps its largest weight. */
export function bagOf(parts: [text: string, weight: number][]): Terms {
  const bag: Terms = new Map();
  for (const [text, weight] of parts) {
    for (const term of terms(text)) bag.set(term, Math.max(bag.get(term) ?? 0, weight));
  }
  return bag;
}

/** BM25's term-frequency saturation (k1 = 1.2): repeating a word helps, with diminishing returns. */
export function saturate(frequency: number): number {
  return (frequency * 2.2) / (frequency + 1.2);
}

/** BM25-like overlap of each bag with the ticket; IDF across the bags, scaled so a unique term weighs 1. */
export function rankBags(bags: Terms[], ticket: Terms): number[] {
  const documentFrequency: Terms = new Map();
  for (const bag of bags) {
    for (const term of bag.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const n = bags.length;
  const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5)) / Math.log(1 + (n - 0.5) / 1.5);
  return bags.map((bag) => {
    let score = 0;
    for (const [term, weight] of bag) {
      const frequency = ticket.get(term);
      if (frequency) score += weight * idf(documentFrequency.get(term) ?? 1) * saturate(frequency);
    }
    return score;
  });
}
