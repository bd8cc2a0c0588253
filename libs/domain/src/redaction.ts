import { REDACTION_PLACEHOLDERS, RULES, type RedactionRule } from './redaction-rules.js';
import type { MetadataValue, Ticket } from './ticket.js';

export { REDACTION_PLACEHOLDERS } from './redaction-rules.js';

/**
 * Matches as `String.replace` finds them, so a rejected match is skipped as a whole. Builds
 * nothing itself; the loop ends the function, as code after a long loop, compiled on the stack
 * before it ever ran, made V8 deoptimize on every call.
 */
function replaceValid(rule: RedactionRule, text: string, out: Rewriter): void {
  const { pattern, isValid } = rule;
  pattern.lastIndex = 0;
  for (let found = pattern.exec(text); found; found = pattern.exec(text)) {
    if (isValid!(text, found.index, pattern.lastIndex)) out.replace(found.index, pattern.lastIndex);
  }
}

/** Matches replaced up to where `validEnd` says their valid part ends; the rest of a match is kept. */
function replaceValidPart(rule: RedactionRule, text: string, out: Rewriter): void {
  const { pattern, validEnd } = rule;
  pattern.lastIndex = 0;
  for (let found = pattern.exec(text); found; found = pattern.exec(text)) {
    const end = validEnd!(text, found.index, pattern.lastIndex);
    if (end >= 0) out.replace(found.index, end);
  }
}

/** Matches whose end `findEnd` finds from where the pattern found them open. */
function replaceFound(rule: RedactionRule, text: string, out: Rewriter): void {
  const { pattern, findEnd } = rule;
  pattern.lastIndex = 0;
  for (let found = pattern.exec(text); found; found = pattern.exec(text)) {
    const end = findEnd!(text, found.index);
    if (end < 0) continue;
    out.replace(found.index, end);
    pattern.lastIndex = end;
  }
}

/** Rebuilds a text with stretches, in order and without overlap, replaced by a placeholder. */
class Rewriter {
  private out = '';
  private copied = 0;

  constructor(
    private readonly text: string,
    private readonly placeholder: string,
  ) {}

  replace(start: number, end: number): void {
    this.out += this.text.slice(this.copied, start) + this.placeholder;
    this.copied = end;
  }

  result(): string {
    return this.copied === 0 ? this.text : this.out + this.text.slice(this.copied);
  }
}

function applyRule(rule: RedactionRule, text: string): string {
  if (rule.requires !== undefined && !text.includes(rule.requires)) return text;
  const placeholder = REDACTION_PLACEHOLDERS[rule.kind];
  if (!rule.isValid && !rule.findEnd && !rule.validEnd) {
    return text.replace(rule.pattern, rule.keepsLabel ? `$1${placeholder}` : placeholder);
  }
  const out = new Rewriter(text, placeholder);
  if (rule.findEnd) replaceFound(rule, text, out);
  else if (rule.validEnd) replaceValidPart(rule, text, out);
  else replaceValid(rule, text, out);
  return out.result();
}

/** Replaces personal data and secrets in free text with typed placeholders. Idempotent. */
export function redactText(text: string): string {
  return RULES.reduce((out, rule) => applyRule(rule, out), text);
}

/** One of each kind the rules detect, in prose: what `warmUpRedaction` runs on. */
const WARM_UP_TEXT =
  'Mail jane.doe@example.com or call +44 20 7946 0958, (555) 555-1234 or 06 12 34 56 78. Card 4111 1111 1111 1111, ' +
  'IBAN DE89 3704 0044 0532 0130 00, SSN 123-45-6789, from 192.168.1.1 and 2001:db8::1. password: hunter2, ' +
  'Authorization: Bearer abc123def456, key sk-aaaaaaaaaaaaaaaaaaaaaaaa, eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2ln. ';

/**
 * Runs every rule on a small text until V8 has compiled the patterns and the per-match checks, so
 * that the first large ticket a process sees is not also the one that pays for it (`BENCH_COLD=1
 * npm run bench:redaction` shows what it saves). The API and the worker call it before they take
 * traffic.
 */
export function warmUpRedaction(): void {
  const text = WARM_UP_TEXT.repeat(4);
  for (let round = 0; round < 200; round++) redactText(text);
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
