/**
 * Inputs that made a regular expression backtrack, or would if a rule lost its guards, one family
 * per way in: long runs of what a rule skips (whitespace, digits, separators), near misses of what
 * it matches (emails, cards, IBANs, addresses, phones) and labels repeated without a value. Shared
 * by `bench:redaction` and the time-bound test in `libs/domain/src/redaction-bounds.spec.ts`.
 */
export interface AdversarialInput {
  name: string;
  /** The rule the family is aimed at. */
  rule: string;
  build(length: number): string;
  /** A near miss: redaction must leave it exactly as it is. */
  unchanged?: boolean;
}

/** `unit` repeated to `length` characters. */
const fill = (unit: string) => (length: number) =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
/** `head`, then `unit` repeated, then `tail`, `length` characters in all. */
const run = (head: string, unit: string, tail: string) => (length: number) =>
  head + fill(unit)(length - head.length - tail.length) + tail;

export const ADVERSARIAL_INPUTS: readonly AdversarialInput[] = [
  { name: 'spaces between two words', rule: 'Bearer, password', build: run('x', ' ', 'x'), unchanged: true },
  { name: 'tabs between two words', rule: 'Bearer, password', build: run('x', '\t', 'x'), unchanged: true },
  { name: 'newlines', rule: 'every rule', build: fill('\n'), unchanged: true },
  { name: 'Bearer, then spaces', rule: 'Bearer', build: run('Bearer', ' ', 'x'), unchanged: true },
  { name: 'Bearer repeated', rule: 'Bearer', build: fill('Bearer '), unchanged: true },
  {
    name: 'Bearer tokens without a digit',
    rule: 'Bearer',
    build: fill('Bearer abcdefghijk '),
    unchanged: true,
  },
  { name: 'password:, then spaces', rule: 'password', build: run('password:', ' ', ':'), unchanged: true },
  { name: 'password: repeated', rule: 'password', build: fill('password: ') },
  { name: 'password is repeated', rule: 'password', build: fill('password is ') },
  {
    name: 'password and an open quote, repeated',
    rule: 'password',
    build: fill('password "'),
    unchanged: true,
  },
  { name: 'password and a quote never closed', rule: 'password', build: run('password: "', 'a', '') },
  { name: 'nested quotes', rule: 'password', build: fill(`"'`), unchanged: true },
  { name: 'one long digit run', rule: 'card, phones', build: fill('1'), unchanged: true },
  { name: 'digits and spaces', rule: 'card, phones', build: fill('1 '), unchanged: true },
  { name: 'digits and dashes', rule: 'card, SSN, phones', build: fill('1-'), unchanged: true },
  { name: 'card numbers failing Luhn', rule: 'card', build: fill('4111 1111 1111 1112 '), unchanged: true },
  { name: 'emails without a top-level domain', rule: 'email', build: fill('a.b@c'), unchanged: true },
  { name: 'a domain of one-letter labels', rule: 'email', build: run('a@', 'b.', '1'), unchanged: true },
  { name: 'a local part with no @', rule: 'email', build: run('', 'a', '@b'), unchanged: true },
  { name: 'a long domain label', rule: 'email', build: run('a@', 'b', '.'), unchanged: true },
  { name: 'at signs', rule: 'email', build: fill('@'), unchanged: true },
  {
    name: 'IBANs one digit short',
    rule: 'IBAN',
    build: fill('DE44 5001 0517 5407 3249 3 '),
    unchanged: true,
  },
  { name: 'IBAN openings', rule: 'IBAN', build: fill('DE00'), unchanged: true },
  // Each opening is a candidate that runs into the next ones, rescanned from its second character.
  { name: 'IBAN openings as words', rule: 'IBAN', build: fill('DE12 '), unchanged: true },
  { name: 'IBANs followed by words', rule: 'IBAN', build: fill('BE68 5390 0754 7034 ASAP THX ') },
  // Lower case openings of countries whose account part is all digits or mixed, spaced as IBANs.
  { name: 'IBAN openings in lower case', rule: 'IBAN', build: fill('gb12 west de12 '), unchanged: true },
  {
    name: 'IBANs with a wrong checksum, irregularly spaced',
    rule: 'IBAN',
    build: fill('BE68 539007547035 de89-3704-0044-0532-0130-01 '),
    unchanged: true,
  },
  {
    name: 'cards failing Luhn before a group of digits',
    rule: 'card',
    build: fill('4111 1111 1111 1112 12/26 '),
    unchanged: true,
  },
  {
    name: 'cards failing Luhn before a word',
    rule: 'card',
    build: fill('4111 1111 1111 1112 1st '),
    unchanged: true,
  },
  { name: 'a card before a long digit run', rule: 'card', build: run('4111 1111 1111 1111 ', '1', 'st') },
  { name: 'colons', rule: 'IPv6', build: fill(':'), unchanged: true },
  { name: 'hex digits and colons', rule: 'IPv6', build: fill('a:'), unchanged: true },
  { name: 'IPv6 one group short', rule: 'IPv6', build: fill('1:2:3:4:5:6:7:'), unchanged: true },
  { name: 'digits and dots', rule: 'IPv4', build: fill('1.'), unchanged: true },
  { name: 'IPv4 one octet short', rule: 'IPv4', build: fill('1.2.3.'), unchanged: true },
  { name: 'plus signs and digits', rule: 'international phone', build: fill('+1 '), unchanged: true },
  {
    name: 'a plus and 1 MiB of digits',
    rule: 'international phone',
    build: run('+', '1', ''),
    unchanged: true,
  },
  { name: 'area codes in brackets', rule: 'international phone', build: fill('+1 (2) '), unchanged: true },
  {
    name: 'North American numbers one group short',
    rule: 'North American phone',
    build: fill('555-555-'),
    unchanged: true,
  },
  { name: 'trunk prefixes', rule: 'national phone', build: fill('0 12 '), unchanged: true },
  { name: 'SSNs one group short', rule: 'SSN', build: fill('123-45-'), unchanged: true },
  { name: 'JWT openings', rule: 'JWT', build: fill('eyJabcdefgh.') },
  { name: 'API key prefixes', rule: 'API key', build: fill('sk- ghp_ xoxb- AIza whsec_ '), unchanged: true },
  {
    name: 'dense personal data',
    rule: 'every rule',
    build: fill(
      'Mail jane.doe@example.com or +44 20 7946 0958, card 4111 1111 1111 1111, IBAN DE89 3704 0044 0532 0130 00, ' +
        'ip 192.168.1.1 and 2001:db8::1, ssn 123-45-6789, password: hunter2 Bearer abc123def456 ',
    ),
  },
];

/** One of each kind the rules detect, with what it becomes: appended after an adversarial run. */
export const DETECTED_SAMPLES: readonly { text: string; redacted: string }[] = [
  { text: `sk-${'a'.repeat(24)}`, redacted: '[SECRET]' },
  { text: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl', redacted: '[SECRET]' },
  { text: 'Bearer abc123def456', redacted: 'Bearer [SECRET]' },
  { text: 'password: hunter2', redacted: 'password: [SECRET]' },
  { text: 'jane.doe@example.com', redacted: '[EMAIL]' },
  { text: 'DE89 3704 0044 0532 0130 00', redacted: '[IBAN]' },
  { text: '4111 1111 1111 1111', redacted: '[CARD]' },
  { text: '123-45-6789', redacted: '[SSN]' },
  { text: '2001:db8::1', redacted: '[IP]' },
  { text: '192.168.1.1', redacted: '[IP]' },
  { text: '+44 20 7946 0958', redacted: '[PHONE]' },
  { text: '(555) 555-1234', redacted: '[PHONE]' },
  { text: '06 12 34 56 78', redacted: '[PHONE]' },
];

/** A support ticket as they usually come: mostly prose, now and then an address or a number. */
export function ordinaryTicketText(index: number): string {
  const lines = [
    `Hello, I was charged twice for order #${100_000 + index} on 2026-11-0${(index % 9) + 1} and would like a refund.`,
    'The second charge appeared this morning, and the app still shows the subscription as inactive.',
    index % 3 === 0
      ? `You can reach me at customer${index}@example.com or on +44 20 7946 ${1000 + (index % 9000)}.`
      : '',
    index % 5 === 0 ? 'My password is not working either since the last update, version 2.3.1.' : '',
    'I have tried logging out and in again, clearing the cache and reinstalling, with no change.',
    index % 7 === 0 ? 'The card ending 1111 was used; the full number was 4111 1111 1111 1111.' : '',
    'Thanks for looking into this. Kind regards, a long-time customer.',
  ];
  return lines.filter(Boolean).join('\n');
}
