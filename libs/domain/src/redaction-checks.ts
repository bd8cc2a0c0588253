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
 * the countries outside it that issue IBANs). A candidate of another length, or from a country
 * without IBANs, is refused before its checksum is computed, so each candidate costs at most one
 * checksum (a match and its retry without the last word cannot both have the country's length).
 */
const IBAN_LENGTHS = new Map(
  Object.entries(countrySpecs).flatMap(([country, spec]) =>
    spec.chars ? [[country, spec.chars] as const] : [],
  ),
);

/**
 * The country's length, then ISO 13616: move the first four characters to the end, letters become
 * 10..35, the number mod 97 is 1. The remainder is taken every few digits only (an exact integer
 * below 2^53 until then).
 */
export function isIbanValid(text: string, start: number, end: number): boolean {
  let length = 0;
  let rest = start;
  for (let i = start; i < end; i++) {
    if (text.charCodeAt(i) !== 32 && ++length === 4) rest = i + 1;
  }
  if (length !== IBAN_LENGTHS.get(text.slice(start, start + 2))) return false;
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
