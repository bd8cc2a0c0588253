import { el, HostBridge, percent, type ToolResult } from './host-bridge.js';

/** An answer as judge_ticket and get_evaluation give it. */
interface Answer {
  type: string;
  choice?: string;
  score?: number;
  probability?: number;
  probabilities?: Record<string, number>;
}

interface Evaluation {
  evaluationId?: string;
  id?: string;
  redactedTicket?: Record<string, unknown>;
  result: { status: string; answers: Record<string, Answer>; reviewReasons: string[] };
}

const root = document.getElementById('root')!;
const bridge = new HostBridge('ticket-judge-evaluation', (result) => void show(result));

async function show(toolResult: ToolResult): Promise<void> {
  const evaluation = toolResult.structuredContent as Evaluation | undefined;
  root.replaceChildren();
  if (toolResult.isError || !evaluation?.result) {
    root.append(el('p', undefined, toolResult.content?.[0]?.text ?? 'No evaluation to show.'));
    return;
  }
  const id = evaluation.evaluationId ?? evaluation.id ?? '';
  const status = el('p', 'muted');
  status.setAttribute('role', 'status');
  root.append(decision(evaluation), ...answers(id, evaluation.result.answers, status), status);
  const ticket = el('section');
  ticket.append(el('h2', undefined, 'Redacted ticket'));
  root.append(ticket);
  // judge_ticket answers without the ticket: the stored (redacted) one comes from get_evaluation.
  let redacted = evaluation.redactedTicket;
  if (!redacted && id) {
    const read = await bridge.callTool('get_evaluation', { evaluationId: id }).catch(() => undefined);
    redacted = (read?.structuredContent as Evaluation | undefined)?.redactedTicket;
  }
  ticket.append(redacted ? ticketText(redacted) : el('p', 'muted', 'Not available.'));
}

function decision(evaluation: Evaluation): HTMLElement {
  const section = el('section');
  const heading = el('h1', undefined, 'Decision: ');
  heading.append(el('span', `decision ${evaluation.result.status}`, evaluation.result.status));
  section.append(heading);
  const reasons = evaluation.result.reviewReasons;
  if (reasons.length) {
    const list = el('ul');
    for (const reason of reasons) list.append(el('li', undefined, reason));
    section.append(list);
  } else section.append(el('p', 'muted', 'No review reasons.'));
  return section;
}

function answers(evaluationId: string, all: Record<string, Answer>, status: HTMLElement): HTMLElement[] {
  return Object.entries(all).map(([questionId, answer]) => {
    const section = el('section');
    const headingId = `q-${questionId}`;
    const heading = el('h2', undefined, `${questionId}: ${display(answer)}`);
    heading.id = headingId;
    section.setAttribute('aria-labelledby', headingId);
    section.append(heading);
    for (const [value, probability] of options(answer)) section.append(bar(value, probability));

    const label = async (labelled: Record<string, unknown>) => {
      status.textContent = 'Saving…';
      const result = await bridge
        .callTool('label_evaluation', { evaluationId, questionId, answer: labelled })
        .catch((error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }));
      status.textContent = result.isError
        ? `Not saved: ${result.content?.[0]?.text ?? 'error'}`
        : `Label saved for ${questionId}.`;
    };
    const actions = el('div', 'actions');
    const agree = el('button', undefined, 'Agree');
    agree.type = 'button';
    agree.setAttribute('aria-describedby', headingId);
    agree.addEventListener('click', () => void label(labelOf(answer, display(answer))));
    const other = el('button', undefined, 'Other answer');
    other.type = 'button';
    other.setAttribute('aria-describedby', headingId);
    other.setAttribute('aria-expanded', 'false');
    const form = el('div', 'actions');
    form.hidden = true;
    const select = el('select');
    select.setAttribute('aria-label', `Other answer for ${questionId}`);
    for (const [value] of options(answer)) {
      if (value !== display(answer)) select.append(new Option(value, value));
    }
    const save = el('button', undefined, 'Save label');
    save.type = 'button';
    save.addEventListener('click', () => void label(labelOf(answer, select.value)));
    form.append(select, save);
    other.addEventListener('click', () => {
      form.hidden = !form.hidden;
      other.setAttribute('aria-expanded', String(!form.hidden));
    });
    actions.append(agree, other);
    section.append(actions, form);
    return section;
  });
}

/** The answer as a reviewer reads it: the choice, the score, or yes / no. */
function display(answer: Answer): string {
  if (answer.type === 'choice') return answer.choice ?? '';
  if (answer.type === 'score') return String(answer.score ?? '');
  return (answer.probability ?? 0) >= 0.5 ? 'yes' : 'no';
}

/** Each possible value with the judge's probability of it. */
function options(answer: Answer): [string, number][] {
  if (answer.type === 'boolean') {
    const yes = answer.probability ?? 0;
    return [
      ['yes', yes],
      ['no', 1 - yes],
    ];
  }
  return Object.entries(answer.probabilities ?? {}).sort((a, b) => b[1] - a[1]);
}

/** A label's answer for a displayed value (a boolean label is certain: probability 0 or 1). */
function labelOf(answer: Answer, value: string): Record<string, unknown> {
  if (answer.type === 'choice') return { type: 'choice', choice: value };
  if (answer.type === 'score') return { type: 'score', score: Number(value) };
  return { type: 'boolean', probability: value === 'yes' ? 1 : 0 };
}

function bar(value: string, probability: number): HTMLElement {
  const row = el('div', 'bar-row');
  const track = el('div', 'bar');
  track.setAttribute('role', 'meter');
  track.setAttribute('aria-label', `Probability of ${value}`);
  track.setAttribute('aria-valuemin', '0');
  track.setAttribute('aria-valuemax', '100');
  track.setAttribute('aria-valuenow', String(Math.round(probability * 100)));
  const fill = el('span');
  fill.style.width = percent(probability);
  track.append(fill);
  row.append(el('span', undefined, value), track, el('span', 'muted', percent(probability)));
  return row;
}

function ticketText(ticket: Record<string, unknown>): HTMLElement {
  const text = [ticket.subject, ticket.body].filter((part) => typeof part === 'string').join('\n\n');
  return el('pre', undefined, text || JSON.stringify(ticket, null, 2));
}

void bridge.connect();
