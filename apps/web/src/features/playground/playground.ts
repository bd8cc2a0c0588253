import type { Schemas } from '../../api/client';
import type { PackDocument } from '../../lib/pack-document';

/** Pure helpers of the playground: the ticket it sends, the versions it offers, the result it shows. */

export type Ticket = Schemas['TicketDto'];
export type Answer = Schemas['AnswerDto'];
export type MessageRole = Schemas['TicketMessageDto']['role'];
export const MESSAGE_ROLES: MessageRole[] = ['customer', 'agent', 'system'];

export interface MessageRow {
  role: MessageRole;
  text: string;
}

export interface MetadataRow {
  key: string;
  value: string;
}

export interface TicketForm {
  subject: string;
  customerMessage: string;
  messages: MessageRow[];
  metadata: MetadataRow[];
}

export const EMPTY_TICKET_FORM: TicketForm = { subject: '', customerMessage: '', messages: [], metadata: [] };

export type BuiltTicket =
  { ok: true; ticket: Ticket } | { ok: false; metadataErrors: Record<number, string>; error: string };

/**
 * The ticket to send. Every thread message is sent as typed (in order, so issue paths such as
 * `ticket.messages.1.text` name the row on screen); metadata rows with neither key nor value are
 * left out, and a row without a key or with a repeated key is refused here.
 */
export function buildTicket(form: TicketForm): BuiltTicket {
  const metadata: Record<string, string> = {};
  const metadataErrors: Record<number, string> = {};
  form.metadata.forEach((row, index) => {
    const key = row.key.trim();
    if (!key && !row.value) return;
    if (!key) metadataErrors[index] = 'Give this value a key';
    else if (key in metadata) metadataErrors[index] = `Key "${key}" is used twice`;
    else metadata[key] = row.value;
  });
  if (Object.keys(metadataErrors).length) {
    return { ok: false, metadataErrors, error: 'Fix the metadata rows first.' };
  }
  const ticket: Ticket = { subject: form.subject, customerMessage: form.customerMessage };
  if (form.messages.length) ticket.messages = form.messages.map(({ role, text }) => ({ role, text }));
  if (Object.keys(metadata).length) ticket.metadata = metadata;
  return { ok: true, ticket };
}

export { statusColor } from '../../ui/status';

/** Question ids in the document's order, then any answered id the document does not list. */
export function answerOrder(answers: Record<string, Answer>, document?: PackDocument): string[] {
  const known = (document?.questions ?? []).map((question) => question.id).filter((id) => id in answers);
  return [...known, ...Object.keys(answers).filter((id) => !known.includes(id))];
}

/** The metadata of a ticket as displayable rows. */
export function metadataEntries(ticket: Ticket): [string, string][] {
  return Object.entries(ticket.metadata ?? {}).map(([key, value]) => [
    key,
    value === null ? '' : String(value),
  ]);
}

type Derived = NonNullable<Schemas['JudgmentResultDto']['derived']>;
type DeriveTarget = keyof Derived;

const DERIVED_LABELS: Record<DeriveTarget, string> = {
  department: 'Department',
  priority: 'Priority',
  tags: 'Tags',
};

/**
 * The derived fields worth a line: those a question of the document derives (with "—" when this
 * result has no value), or, without the document, those the result carries. A pack that derives
 * nothing shows none.
 */
export function derivedFacts(
  derived: Derived | undefined,
  document?: PackDocument,
): { label: string; value: string }[] {
  const targets = (Object.keys(DERIVED_LABELS) as DeriveTarget[]).filter((target) =>
    document
      ? document.questions.some(
          (question) => question.type === 'choice' && question.criteria.derive === target,
        )
      : derived?.[target] !== undefined,
  );
  return targets.map((target) => {
    const value = derived?.[target];
    const text = Array.isArray(value) ? value.join(', ') : value;
    return { label: DERIVED_LABELS[target], value: text ? text : '—' };
  });
}
