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

/**
 * The IBAN length of every country that has one, from ibantools' copy of the SWIFT registry (and
 * the countries outside it that issue IBANs), indexed by the country's two letters (0 for none): a
 * lookup that costs no substring, as text of back-to-back openings (`DE12 DE12 …`) makes one for
 * every five characters.
 */
const IBAN_LENGTHS = new Uint8Array(26 * 26);
for (const [country, spec] of Object.entries(countrySpecs)) {
  if (spec.chars) IBAN_LENGTHS[(country.charCodeAt(0) - 65) * 26 + country.charCodeAt(1) - 65] = spec.chars;
}

/**
 * Where the IBAN opening at `start` (two letters, two digits) ends, or -1 if none does. The country
 * fixes its length, so the words after it (`… 7034 ASAP THX`, which look like more groups) are
 * never read as part of it. Upper case, as IBANs are written, in print form (groups of four) or
 * electronic form (solid); each form fixes where it ends, so a candidate that does not end a word
 * there costs two reads, however many openings follow one another (`DE12 DE12 …`).
 */
export function ibanEnd(text: string, start: number): number {
  const length = IBAN_LENGTHS[(text.charCodeAt(start) - 65) * 26 + text.charCodeAt(start + 1) - 65];
  if (!length) return -1;
  for (const grouped of [true, false]) {
    const end = start + length + (grouped ? (length - 1) >> 2 : 0);
    if (isWordCharacter(text.charCodeAt(end)) || !hasIbanShape(text, start, length, grouped)) continue;
    return isIbanChecksumValid(text, start, end) ? end : -1;
  }
  return -1;
}

/** `length` upper case letters and digits from `start`, with a space before every fourth if `grouped`. */
function hasIbanShape(text: string, start: number, length: number, grouped: boolean): boolean {
  let i = start;
  for (let k = 0; k < length; k++, i++) {
    if (grouped && k > 0 && k % 4 === 0 && text.charCodeAt(i++) !== 32) return false;
    if (!isUpperAlphanumeric(text.charCodeAt(i))) return false;
  }
  return true;
}

const isUpperAlphanumeric = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
const isWordCharacter = (code: number) =>
  isUpperAlphanumeric(code) || (code >= 97 && code <= 122) || code === 95;

/**
 * ISO 13616: move the first four characters to the end, letters become 10..35, the number mod 97
 * is 1. The remainder is taken every few digits only (an exact integer below 2^53 until then).
 */
function isIbanChecksumValid(text: string, start: number, end: number): boolean {
  let rest = start;
  for (let length = 0; length < 4; rest++) if (text.charCodeAt(rest) !== 32) length++;
  let remainder = 0;
  for (let k = rest; k < end + rest - start; k++) {
    const code = text.charCodeAt(k < end ? k : k - end + start);
    if (code === 32) continue;
    remainder = code >= 65 ? remainder * 100 + code - 55 : remainder * 10 + code - 48;
    if (remainder > 1e12) remainder %= 97;
  }
  return remainder % 97 === 1;
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
