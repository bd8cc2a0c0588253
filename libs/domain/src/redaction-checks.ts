import { countrySpecs } from 'ibantools';

/*
 * What a pattern cannot state (a checksum, a digit count across separators), checked per match on
 * the match's indices, so a rejected candidate costs no substring.
 */

/** Luhn check; a run of one repeated digit (`0000 0000 0000 0000`) passes it but is no card. */
export function isLuhnValid(text: string, start: number, end: number): boolean {
  let sum = 0;
  let count = 0;
  let repeated = true;
  for (let i = end - 1; i >= start; i--) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) continue;
    if (count > 0 && text.charCodeAt(i) !== text.charCodeAt(end - 1)) repeated = false;
    sum += count % 2 === 1 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit;
    count++;
  }
  return count >= 13 && count <= 19 && !repeated && sum % 10 === 0;
}

const DIGIT = 1;
const LETTER = 2;

/** What each ASCII character can be in an IBAN: DIGIT, LETTER (either case) or 0 (neither). */
const CHAR_CLASSES = new Uint8Array(128);
for (let code = 48; code <= 57; code++) CHAR_CLASSES[code] = DIGIT;
for (let code = 65; code <= 90; code++) CHAR_CLASSES[code] = CHAR_CLASSES[code + 32] = LETTER;

/** A table lookup: this runs for every character of every IBAN candidate. */
const charClass = (code: number) => (code < 128 ? CHAR_CLASSES[code] : 0);

/**
 * Every IBAN country's account part (BBAN), one entry a position: DIGIT, LETTER or both, from
 * ibantools' copy of the SWIFT registry (`^[0-9]{8}[A-Z0-9]{12}$` for Andorra), indexed by the
 * country's two letters. A candidate is refused at its first character of the wrong kind, so text
 * of back-to-back openings (`DE12 DE12 …`) costs a few reads per opening, not a country's length.
 */
const BBAN_FORMATS = new Array<Uint8Array | undefined>(26 * 26);
for (const [country, spec] of Object.entries(countrySpecs)) {
  if (!spec.chars) continue;
  const positions: number[] = [];
  for (const [, chars, count] of String(spec.bban_regexp).matchAll(/\[([^\]]+)\]\{(\d+)\}/g)) {
    const kind = (chars.includes('0-9') ? DIGIT : 0) | (chars.includes('A-Z') ? LETTER : 0);
    for (let k = 0; k < Number(count); k++) positions.push(kind);
  }
  const bban =
    positions.length === spec.chars - 4 ? positions : new Array<number>(spec.chars - 4).fill(DIGIT | LETTER);
  BBAN_FORMATS[countryIndex(country.charCodeAt(0), country.charCodeAt(1))] = Uint8Array.from(bban);
}

function countryIndex(first: number, second: number): number {
  const a = (first | 32) - 97;
  const b = (second | 32) - 97;
  return a >= 0 && a < 26 && b >= 0 && b < 26 ? a * 26 + b : -1;
}

/**
 * Where the IBAN opening at `start` (two letters, two digits) ends, or -1 if none does. The country
 * fixes its length, so the words after it (`… 7034 ASAP THX`, which look like more groups) are
 * never read as part of it. It is read in either case and in any grouping: one space or hyphen at
 * most between two characters (print form, electronic form, `BE68 539007547034`, `de89-3704-…`),
 * each character of the kind the country's format puts there. It must end a word and pass mod-97.
 */
export function ibanEnd(text: string, start: number): number {
  const index = countryIndex(text.charCodeAt(start), text.charCodeAt(start + 1));
  const bban = index < 0 ? undefined : BBAN_FORMATS[index];
  if (!bban) return -1;
  let i = start + 4;
  for (let k = 0; k < bban.length; k++, i++) {
    let code = text.charCodeAt(i);
    if ((code === 32 || code === 45) && charClass(text.charCodeAt(i + 1)) !== 0) code = text.charCodeAt(++i);
    if ((charClass(code) & bban[k]) === 0) return -1;
  }
  if (charClass(text.charCodeAt(i)) !== 0 || text.charCodeAt(i) === 95) return -1;
  return isIbanChecksumValid(text, start, i) ? i : -1;
}

/**
 * ISO 13616: move the first four characters to the end, letters (either case) become 10..35, the
 * number mod 97 is 1. Separators are skipped. The remainder is taken every few digits only (an
 * exact integer below 2^53 until then).
 */
function isIbanChecksumValid(text: string, start: number, end: number): boolean {
  const rest = start + 4;
  let remainder = 0;
  for (let k = rest; k < end + 4; k++) {
    const code = text.charCodeAt(k < end ? k : k - end + start);
    const kind = charClass(code);
    if (kind === 0) continue;
    if (kind === LETTER) remainder = remainder * 100 + (code | 32) - 87;
    else remainder = remainder * 10 + code - 48;
    if (remainder > 1e12) remainder %= 97;
  }
  return remainder % 97 === 1;
}

/**
 * Where the card number found from `start` to `end` ends: all of it when it passes Luhn, else its
 * longest part of 13 digits or more that ends at a separator and passes Luhn (a card followed by
 * a group of digits, `4111 1111 1111 1111 12/26`, reads as one longer number), else -1.
 */
export function cardEnd(text: string, start: number, end: number): number {
  if (isLuhnValid(text, start, end)) return end;
  let digits = 0;
  for (let i = start; i < end; i++) if (charClass(text.charCodeAt(i)) === DIGIT) digits++;
  // Backwards over the match; a part needs 13 digits, so most failed cards cost no second check.
  for (let i = end - 1; i > start && digits >= 13; i--) {
    const code = text.charCodeAt(i);
    if (code === 32 || code === 45) {
      if (isLuhnValid(text, start, i)) return i;
    } else digits--;
  }
  return -1;
}

/** Between `min` and `max` digits, whatever separates them. */
export const digitCountBetween = (min: number, max: number) => (text: string, start: number, end: number) => {
  let count = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) count++;
  }
  return count >= min && count <= max;
};
