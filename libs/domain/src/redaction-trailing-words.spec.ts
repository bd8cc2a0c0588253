import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { REDACTION_PLACEHOLDERS, redactText } from './redaction.js';

/**
 * A personal number followed by words (issue 20: `BE68 5390 0754 7034 ASAP THX` was stored as
 * given, because upper case words look like more IBAN groups and only one was ever dropped). The
 * words are any mix of letters and digits with at least one letter, in upper or lower case, so
 * they may look like IBAN groups or like the tail of a card number but are never a number.
 */
const NUMBERS = {
  iban: [
    'DE89 3704 0044 0532 0130 00',
    'DE89370400440532013000',
    'GB82 WEST 1234 5698 7654 32',
    'GB82WEST12345698765432',
    'FR14 2004 1010 0505 0001 3M02 606',
    'NL91 ABNA 0417 1643 00',
    'NL91ABNA0417164300',
    'BE68 5390 0754 7034',
    'BE68539007547034',
    'ES91 2100 0418 4502 0005 1332',
    'NO93 8601 1117 947',
    'CH93 0076 2011 6238 5295 7',
    'IT60 X054 2811 1010 0000 0123 456',
    'MT84MALT011000012345MTLCAST001S',
    'BE68 539007547034',
    'DE89 37040044 0532013000',
    'DE89-3704-0044-0532-0130-00',
    'be68 5390 0754 7034',
    'gb82west12345698765432',
    'fr14 2004 1010 0505 0001 3m02 606',
  ],
  card: [
    '4111 1111 1111 1111',
    '4111111111111111',
    '5555-5555-5555-4444',
    '3782 822463 10005',
    '6011 1111 1111 1117',
    '4012888888881881',
  ],
  phone: [
    '+44 20 7946 0958',
    '+442079460958',
    '+33 6 12 34 56 78',
    '+1 (555) 014-2345',
    '(555) 014-2345',
    '555-014-2345',
    '06 12 34 56 78',
    '020 7946 0958',
  ],
} as const;

const letter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ');
const alphanumeric = fc.constantFrom(...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ');
const word = fc
  .tuple(fc.array(alphanumeric, { maxLength: 4 }), letter, fc.array(alphanumeric, { maxLength: 4 }))
  .map(([before, middle, after]) => [...before, middle, ...after].join(''));
const casing = fc.constantFrom(
  (text: string) => text,
  (text: string) => text.toUpperCase(),
  (text: string) => text.toLowerCase(),
);
const words = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 5 }), casing)
  .map(([list, cased]) => cased(list.join(' ')));

describe.each(Object.entries(NUMBERS))('a %s followed by words', (kind, numbers) => {
  const placeholder = REDACTION_PLACEHOLDERS[kind as keyof typeof NUMBERS];

  it('is redacted and the words are kept', () => {
    fc.assert(
      fc.property(fc.constantFrom(...numbers), words, (number, after) => {
        expect(redactText(`Refund to ${number} ${after}`)).toBe(`Refund to ${placeholder} ${after}`);
      }),
      { numRuns: 400 },
    );
  });

  it.each([...numbers])('%s before the words of the issue', (number) => {
    for (const after of [
      'ASAP',
      'ASAP THX',
      'ASAP THX PLS',
      'asap thx',
      'EUR BY FRI 1ST',
      '1ST 2ND 3RD 4TH 5TH',
    ]) {
      expect(redactText(`${number} ${after}`)).toBe(`${placeholder} ${after}`);
    }
  });
});

describe('IBANs among words', () => {
  it('redacts two IBANs in a row', () => {
    expect(redactText('BE68 5390 0754 7034 DE89 3704 0044 0532 0130 00 THX')).toBe('[IBAN] [IBAN] THX');
  });

  it('redacts a card followed by a group of digits, keeping the group (an expiry date)', () => {
    expect(redactText('Card 4111 1111 1111 1111 12/26 CVC on file')).toBe('Card [CARD] 12/26 CVC on file');
    expect(redactText('Card 5555-5555-5555-4444 0326 please')).toBe('Card [CARD] 0326 please');
    // A bare run of digits has no group boundary to cut at, so a long order number stays whole.
    expect(redactText('Order 4111111111111111123')).toBe('Order 4111111111111111123');
  });

  it('redacts an IBAN after a word that opens like one', () => {
    expect(redactText('REF FR12 BE68 5390 0754 7034 ASAP')).toBe('REF FR12 [IBAN] ASAP');
  });
});
