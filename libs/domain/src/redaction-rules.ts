import { API_KEY_PREFIX } from './api-key-format.js';
import { cardEnd, digitCountBetween, ibanEnd } from './redaction-checks.js';

/** What each kind of personal data or secret is replaced with. */
export const REDACTION_PLACEHOLDERS = {
  secret: '[SECRET]',
  email: '[EMAIL]',
  iban: '[IBAN]',
  card: '[CARD]',
  ssn: '[SSN]',
  ip: '[IP]',
  phone: '[PHONE]',
} as const;

export type RedactionKind = keyof typeof REDACTION_PLACEHOLDERS;

/*
 * Time bound. Tickets reach this code from the judge route, inbound webhooks and dataset uploads,
 * in bodies of up to 1 MiB, so every rule is linear in the text with a small constant (figures in
 * docs/performance.md, "Redaction"):
 * - A lookbehind with an unbounded quantifier is only tried where its end can be: after the
 *   assertions on the characters at the position (`([ \t])(?=[\w.~+/-])(?<=\bBearer[ \t]+)`), so
 *   each run of spaces is read backwards once, not again from every position inside it.
 * - A pattern whose match starts with a word character opens with `\b`, which the engine tests
 *   far faster than the lookbehind after it (the old `(?<![\w…])` split in two).
 * - Every match has a bounded length or ends where a run of its characters ends, so a failed
 *   attempt never rereads more than that run, and a new attempt never starts inside it.
 * - Checks that a regular expression can state (IP address syntax, per node:net) are in the
 *   pattern, so `String.replace` does the work natively; the rest run per match, on indices.
 */

/** A pattern and what its matches become. */
export interface RedactionRule {
  name: string;
  kind: RedactionKind;
  /** Global pattern. With `keepsLabel`, group 1 is a label put back before the placeholder. */
  pattern: RegExp;
  keepsLabel?: boolean;
  /** A string every match contains: a text without it is not scanned. */
  requires?: string;
  /** Rejects a match that only looks right (a phone number with too few digits); it is kept as is. */
  isValid?: (text: string, start: number, end: number) => boolean;
  /**
   * Where the valid part of a match ends (all of it, a leading part, or -1 for none): a 16-digit
   * card followed by a group of digits that the pattern took for more of it.
   */
  validEnd?: (text: string, start: number, end: number) => number;
  /**
   * For a pattern that finds only where a match opens: where the match ends, or -1 when there is
   * none there. Checked in code where a pattern cannot tell the match from the words after it.
   */
  findEnd?: (text: string, start: number) => number;
}

/** node:net's IPv4 grammar (lib/internal/net.js): no octet above 255, no leading zero. */
const IPV4_OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|\\d)';
const IPV4 = `(?:${IPV4_OCTET}\\.){3}${IPV4_OCTET}`;

/** node:net's IPv6 grammar, without the zone suffix (`%eth0`), which no match here can hold. */
const H16 = '[0-9a-fA-F]{1,4}';
const IPV6 = [
  `(?:${H16}:){7}(?:${H16}|:)`,
  `(?:${H16}:){6}(?:${IPV4}|:${H16}|:)`,
  `(?:${H16}:){5}(?::${IPV4}|(?::${H16}){1,2}|:)`,
  `(?:${H16}:){4}(?:(?::${H16}){0,1}:${IPV4}|(?::${H16}){1,3}|:)`,
  `(?:${H16}:){3}(?:(?::${H16}){0,2}:${IPV4}|(?::${H16}){1,4}|:)`,
  `(?:${H16}:){2}(?:(?::${H16}){0,3}:${IPV4}|(?::${H16}){1,5}|:)`,
  `(?:${H16}:){1}(?:(?::${H16}){0,4}:${IPV4}|(?::${H16}){1,6}|:)`,
  `:(?:(?::${H16}){0,5}:${IPV4}|(?::${H16}){1,7}|:)`,
].join('|');

/** Known key formats; a fixed prefix is what makes them safe to match without context. */
const API_KEY_SHAPES = [
  'sk-[\\w-]{20}[\\w-]*', // OpenAI and Anthropic (sk-proj-…, sk-ant-…)
  '(?:sk|pk|rk)_(?:live|test)_[0-9A-Za-z]{16}[0-9A-Za-z]*', // Stripe
  'gh[pousr]_[0-9A-Za-z]{30}[0-9A-Za-z]*', // GitHub tokens
  'github_pat_\\w{30}\\w*', // GitHub fine-grained tokens
  'xox[abeprs]-[0-9A-Za-z-]{10}[0-9A-Za-z-]*', // Slack
  '(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])', // AWS access key ids
  'AIza[\\w-]{30}[\\w-]*', // Google API keys
  `${API_KEY_PREFIX}[0-9A-Za-z]{20}[0-9A-Za-z]*`, // our own API keys
  'whsec_[0-9A-Za-z+/=]{20}[0-9A-Za-z+/=]*', // webhook signing secrets
];

/** Words that follow "password is" in complaints rather than disclosures ("my password is not working"). */
const NOT_A_PASSWORD =
  'not|no|wrong|incorrect|invalid|expired|too|still|being|now|the|a|an|my|your|correct|right|required|reset|changed|locked|working|broken|case|also|same|different|empty|blank';

/**
 * Applied in order: secrets and emails first (they contain digits), IBANs before cards before phones.
 * Where a pattern changed, it matches exactly what it matched before; the added assertions are
 * implied by the rest of it and only let the engine give up sooner.
 */
export const RULES: readonly RedactionRule[] = [
  {
    name: 'API key with a known prefix',
    kind: 'secret',
    pattern: new RegExp(`\\b(?<!-)(?:${API_KEY_SHAPES.join('|')})`, 'g'),
  },
  {
    name: 'JSON Web Token',
    kind: 'secret',
    requires: 'eyJ',
    pattern: /\b(?<!-)eyJ[\w-]{8}[\w-]*\.eyJ[\w-]{8}[\w-]*\.[\w-]*/g,
  },
  {
    // A token needs a digit, so "the bearer of this letter" is left alone. Group 1 is the space
    // before the token, kept; the label is then only read back from the end of a run of spaces.
    name: 'Bearer token (keeps the word Bearer)',
    kind: 'secret',
    pattern: /([ \t])(?=[\w.~+/-])(?<=\bBearer[ \t]+)(?=[\w.~+/-]*\d)[\w.~+/-]{8}[\w.~+/-]*=*/gi,
    keepsLabel: true,
  },
  {
    // The value runs to the next space, punctuation included: better a lost full stop than a leaked
    // character. A quoted value may hold spaces; an already redacted one is skipped (idempotence).
    // Group 1 is the label's last character (a space, `:`, `=` or the `s` of `is`), kept.
    name: 'password value (keeps the label)',
    kind: 'secret',
    pattern: new RegExp(
      `([ \\t:=s])(?=[^\\s:=])(?<=\\b(?:password|passwd|passphrase|passcode|pwd)["']?(?:[ \\t]*[:=]|[ \\t]+is:?)[ \\t]*)` +
        `(?!(?:${NOT_A_PASSWORD})\\b|\\[SECRET\\]|[:=])(?:"[^"\\n]*"|'[^'\\n]*'|\\S+)`,
      'gi',
    ),
    keepsLabel: true,
  },
  {
    name: 'email address',
    kind: 'email',
    requires: '@',
    pattern:
      /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+\.(?:[\p{L}\p{N}-]+\.)*\p{L}{2}\p{L}*(?![\p{L}\p{N}-])/gu,
  },
  {
    // The country code and check digits; `ibanEnd` reads the rest, as long as the country says.
    // A pattern cannot: words after an IBAN look like more of its groups.
    name: 'IBAN',
    kind: 'iban',
    pattern: /\b[A-Za-z]{2}\d{2}/g,
    findEnd: ibanEnd,
  },
  {
    // Not glued to a `+` (phones) or an identifier like `ORD-…`, nor ending inside a run of
    // digits. A group of digits after it (an expiry date, `… 1111 12/26`) may be taken for more of
    // it: `cardEnd` then keeps the longest part that passes Luhn and ends between groups.
    name: 'payment card number',
    kind: 'card',
    pattern: /\b(?<!\+|\w-|\d )\d(?:[ -]?\d){12,18}(?!\w)/g,
    validEnd: cardEnd,
  },
  {
    // SSA never issues area 000, 666 or 9xx, group 00 or serial 0000.
    name: 'US social security number',
    kind: 'ssn',
    requires: '-',
    pattern: /\b(?<!-)(?!000|666|9)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])/g,
  },
  {
    // Before IPv4, so an embedded IPv4 tail (`::ffff:192.0.2.1`) goes with its address. The first
    // lookahead is the shape the rule has always matched (at most 7 colons), the second requires
    // a digit so identifiers like `a::b` are not taken for addresses, then node:net's grammar.
    name: 'IPv6 address',
    kind: 'ip',
    requires: ':',
    pattern: new RegExp(
      '(?<![\\w:.])(?=(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\\d{1,3}\\.){3}\\d{1,3})?(?![\\w:]|\\.\\d))' +
        `(?=[a-fA-F:]*\\d)(?:${IPV6})(?![\\w:]|\\.\\d)`,
      'g',
    ),
  },
  {
    // Not part of a longer dotted run, so `1.2.3.4.5` (a version) stays; octets as node:net reads them.
    name: 'IPv4 address',
    kind: 'ip',
    requires: '.',
    pattern: new RegExp(`\\b(?<!\\.)${IPV4}(?!\\w|\\.\\d)`, 'g'),
  },
  {
    // E.164 allows at most 15 digits; fewer than 8 is more likely an amount or a count. The
    // lookahead (8 digits at most two separators apart) rejects short ones before any check runs.
    name: 'international phone number',
    kind: 'phone',
    requires: '+',
    pattern: /(?<![\w+])\+(?=\d(?:[ .()-]{0,2}\d){7})\d+(?:(?:[ .-]| ?\(\d{1,4}\) ?)\d+)*(?![\w-]|[.,:/]\d)/g,
    isValid: digitCountBetween(8, 15),
  },
  {
    name: 'North American phone number',
    kind: 'phone',
    pattern:
      /(?<![\w+(.-]|\d )(?:1[ .-])?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[ .-])\d{3}[ .-]\d{4}(?![\w-]|[.,:/]\d)/g,
  },
  {
    // Trunk prefix 0 then an area code (`06 12 34 56 78`, `020 7946 0958`). Separators are
    // required, so bare digit runs (order numbers) stay; dates fall short of 9 digits; the
    // tail of a longer digit group (`… 0532 0130 01`) is not a phone.
    name: 'national phone number with trunk prefix',
    kind: 'phone',
    pattern: /(?<![\w+(.,/-]|\d )0[1-9]\d{0,3}(?:[ .-]\d{2,8}){1,4}(?![\w-]|[.,:/]\d)/g,
    isValid: digitCountBetween(9, 12),
  },
];
