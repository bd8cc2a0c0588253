import { isIPv4, isIPv6 } from 'node:net';
import { API_KEY_PREFIX } from './api-key-format.js';
import type { MetadataValue, Ticket } from './ticket.js';

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

type RedactionKind = keyof typeof REDACTION_PLACEHOLDERS;

interface RedactionRule {
  name: string;
  kind: RedactionKind;
  /** Global pattern; the whole match is replaced, so a label to keep sits in a lookbehind. */
  pattern: RegExp;
  /** Rejects text that only looks right (a 16-digit number failing Luhn); rejected text is kept. */
  isValid?: (match: string) => boolean;
  /** The pattern may swallow one following short word (`… 7034 EUR`): retry once without it. */
  mayOverrunOneWord?: boolean;
}

const digitsOf = (text: string): string => text.replace(/\D/g, '');
const digitCountBetween = (min: number, max: number) => (text: string) => {
  const count = digitsOf(text).length;
  return count >= min && count <= max;
};

/** Luhn check; a run of one repeated digit (`0000 0000 0000 0000`) passes it but is no card. */
function isLuhnValid(text: string): boolean {
  const digits = digitsOf(text);
  if (digits.length < 13 || digits.length > 19 || /^(\d)\1+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** ISO 13616: move the first four characters to the end, letters become 10..35, the number mod 97 is 1. */
function isIbanValid(text: string): boolean {
  const iban = text.replace(/ /g, '');
  if (iban.length < 15 || iban.length > 34) return false;
  const numeric = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (ch) => String(ch.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

/** Known key formats; a fixed prefix is what makes them safe to match without context. */
const API_KEY_SHAPES = [
  'sk-[\\w-]{20,}', // OpenAI and Anthropic (sk-proj-…, sk-ant-…)
  '(?:sk|pk|rk)_(?:live|test)_[0-9A-Za-z]{16,}', // Stripe
  'gh[pousr]_[0-9A-Za-z]{30,}', // GitHub tokens
  'github_pat_\\w{30,}', // GitHub fine-grained tokens
  'xox[abeprs]-[0-9A-Za-z-]{10,}', // Slack
  '(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])', // AWS access key ids
  'AIza[\\w-]{30,}', // Google API keys
  `${API_KEY_PREFIX}[0-9A-Za-z]{20,}`, // our own API keys
  'whsec_[0-9A-Za-z+/=]{20,}', // webhook signing secrets
];

/** Words that follow "password is" in complaints rather than disclosures ("my password is not working"). */
const NOT_A_PASSWORD =
  'not|no|wrong|incorrect|invalid|expired|too|still|being|now|the|a|an|my|your|correct|right|required|reset|changed|locked|working|broken|case|also|same|different|empty|blank';

/** Applied in order: secrets and emails first (they contain digits), IBANs before cards before phones. */
const RULES: readonly RedactionRule[] = [
  {
    name: 'API key with a known prefix',
    kind: 'secret',
    pattern: new RegExp(`(?<![\\w-])(?:${API_KEY_SHAPES.join('|')})`, 'g'),
  },
  {
    name: 'JSON Web Token',
    kind: 'secret',
    pattern: /(?<![\w-])eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*/g,
  },
  {
    // A token needs a digit, so "the bearer of this letter" is left alone.
    name: 'Bearer token (keeps the word Bearer)',
    kind: 'secret',
    pattern: /(?<=\bBearer[ \t]+)(?=[\w.~+/-]*\d)[\w.~+/-]{8,}=*/gi,
  },
  {
    // The value runs to the next space, punctuation included: better a lost full stop than a leaked
    // character. A quoted value may hold spaces; an already redacted one is skipped (idempotence).
    name: 'password value (keeps the label)',
    kind: 'secret',
    pattern: new RegExp(
      `(?<=\\b(?:password|passwd|passphrase|passcode|pwd)["']?(?:[ \\t]*[:=]|[ \\t]+is:?)[ \\t]*)` +
        `(?!(?:${NOT_A_PASSWORD})\\b|\\[SECRET\\]|[:=])(?:"[^"\\n]*"|'[^'\\n]*'|\\S+)`,
      'gi',
    ),
  },
  {
    name: 'email address',
    kind: 'email',
    pattern: /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@(?:[\p{L}\p{N}-]+\.)+\p{L}{2,}(?![\p{L}\p{N}-])/gu,
  },
  {
    // Print form groups of four or electronic form; upper case only, as IBANs are written.
    name: 'IBAN',
    kind: 'iban',
    pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g,
    isValid: isIbanValid,
    mayOverrunOneWord: true,
  },
  {
    // Not glued to a longer number, a `+` (phones) or an identifier like `ORD-…`.
    name: 'payment card number',
    kind: 'card',
    pattern: /(?<![\w+]|\w-|\d )\d(?:[ -]?\d){12,18}(?!\w|[ -]\d)/g,
    isValid: isLuhnValid,
  },
  {
    // SSA never issues area 000, 666 or 9xx, group 00 or serial 0000.
    name: 'US social security number',
    kind: 'ssn',
    pattern: /(?<![\w-])(?!000|666|9)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\w-])/g,
  },
  {
    // Before IPv4, so an embedded IPv4 tail (`::ffff:192.0.2.1`) goes with its address.
    // A digit is required so identifiers like `a::b` are not taken for addresses.
    name: 'IPv6 address',
    kind: 'ip',
    pattern:
      /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?![\w:]|\.\d)/g,
    isValid: (match) => isIPv6(match) && /\d/.test(match),
  },
  {
    // Not part of a longer dotted run, so `1.2.3.4.5` (a version) stays.
    name: 'IPv4 address',
    kind: 'ip',
    pattern: /(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?!\w|\.\d)/g,
    isValid: isIPv4,
  },
  {
    // E.164 allows at most 15 digits; fewer than 8 is more likely an amount or a count.
    name: 'international phone number',
    kind: 'phone',
    pattern: /(?<![\w+])\+\d+(?:(?:[ .-]| ?\(\d{1,4}\) ?)\d+)*(?![\w-]|[.,:/]\d)/g,
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

function redactMatch(rule: RedactionRule, match: string): string {
  const placeholder = REDACTION_PLACEHOLDERS[rule.kind];
  if (!rule.isValid || rule.isValid(match)) return placeholder;
  const lastSpace = match.lastIndexOf(' ');
  if (rule.mayOverrunOneWord && lastSpace > 0 && rule.isValid(match.slice(0, lastSpace))) {
    return placeholder + match.slice(lastSpace);
  }
  return match;
}

/** Replaces personal data and secrets in free text with typed placeholders. Idempotent. */
export function redactText(text: string): string {
  return RULES.reduce((out, rule) => out.replace(rule.pattern, (match) => redactMatch(rule, match)), text);
}

function redactMetadata(metadata: Record<string, MetadataValue>): Record<string, MetadataValue> {
  return Object.fromEntries(
    Object.entries(metadata).map(([key, value]) => [
      key,
      typeof value === 'string' ? redactText(value) : value,
    ]),
  );
}

/** A redacted copy of the ticket. `externalId` is the caller's own id and is kept as given. */
export function redactTicket(ticket: Ticket): Ticket {
  const { messages, metadata } = ticket;
  return {
    ...ticket,
    subject: redactText(ticket.subject),
    customerMessage: redactText(ticket.customerMessage),
    ...(messages && {
      messages: messages.map((message) => ({ ...message, text: redactText(message.text) })),
    }),
    ...(metadata && { metadata: redactMetadata(metadata) }),
  };
}
