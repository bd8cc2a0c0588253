import type { Schemas } from '../../api/client';
import { answerText } from '../../lib/answers';
import { countLabel, formatDateTime } from '../../lib/format';
import { findQuestion, type PackDocument } from '../../lib/pack-document';
import { runVersionLabel } from '../../lib/versions';

export type SimulationStatus = Schemas['SimulationDto']['status'];
export type TicketStatus = keyof Schemas['ByStatusDto'];

export const TICKET_STATUSES: TicketStatus[] = ['accept', 'review', 'reject'];

export interface Progress {
  /** 0 to 100, whole numbers; 100 only when every ticket is judged. */
  percent: number;
  /** "3 of 10 tickets". */
  label: string;
}

export function progressOf({ completed, total }: { completed: number; total: number }): Progress {
  const percent = total > 0 ? Math.min(100, Math.floor((completed / total) * 100)) : 100;
  return { percent, label: `${completed} of ${countLabel(total, 'ticket')}` };
}

/** "45 s", "3 min", "1 h 5 min". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''}`;
}

/**
 * The time left of a running simulation at `now`, from its pace so far; null before the first
 * ticket is judged or when it is not running.
 */
export function remainingText(
  simulation: Pick<Schemas['SimulationDto'], 'status' | 'startedAt' | 'completed' | 'total'>,
  now: number,
): string | null {
  const { status, startedAt, completed, total } = simulation;
  if (status !== 'running' || !startedAt || completed <= 0 || completed >= total) return null;
  const elapsed = now - new Date(startedAt).getTime();
  if (!(elapsed > 0)) return null;
  return `about ${formatDuration((elapsed / completed) * (total - completed))} left`;
}

/** How long a finished simulation took, or null. */
export function durationText(simulation: Pick<Schemas['SimulationDto'], 'startedAt' | 'finishedAt'>) {
  const { startedAt, finishedAt } = simulation;
  if (!startedAt || !finishedAt) return null;
  return formatDuration(new Date(finishedAt).getTime() - new Date(startedAt).getTime());
}

export interface Option {
  value: string;
  label: string;
}

type ListItem = Schemas['SimulationListItemDto'];

/** What a simulation is called: its name, or "Support triage on November tickets" without one. */
export function simulationTitle(item: Pick<ListItem, 'name' | 'packName' | 'datasetName'>): string {
  return item.name ?? `${item.packName} on ${item.datasetName}`;
}

/**
 * A simulation among others: "Support triage (Version 2) on November tickets · 3 Nov 2026, 10:00",
 * its name first when it has one, so a live run and a draft run never look alike.
 */
export function simulationLabel(item: ListItem): string {
  const what = `${item.packName} (${runVersionLabel(item)}) on ${item.datasetName} · ${formatDateTime(item.createdAt)}`;
  return item.name ? `${item.name} · ${what}` : what;
}

/** The question ids answered in any of these evaluations, in the pack's order when it is known. */
export function answeredQuestions(
  items: ReadonlyArray<{ answers?: Record<string, unknown> }>,
  document?: PackDocument,
): string[] {
  const seen = new Set<string>();
  for (const item of items) for (const id of Object.keys(item.answers ?? {})) seen.add(id);
  const order = document?.questions.map((question) => question.id) ?? [];
  const known = order.filter((id) => seen.has(id));
  const rest = [...seen].filter((id) => !order.includes(id)).sort();
  return [...known, ...rest];
}

/** A question's name from the document, else its id. */
export function questionName(document: PackDocument | undefined, questionId: string): string {
  return findQuestion(document, questionId)?.name ?? questionId;
}

type ChangedTicket = Schemas['ChangedTicketDto'];

/** A changed answer in words: "billing → technical" ("No answer" where a run has none). */
export function answerChangeText(change: ChangedTicket['answers'][number], document?: PackDocument): string {
  const question = findQuestion(document, change.questionId);
  return `${answerText(change.from ?? undefined, question)} → ${answerText(change.to ?? undefined, question)}`;
}

/** A ticket as a reader knows it: its subject, with its external id when it has one. */
export function ticketLabel(ticket: { subject?: string | null; externalId?: string | null }): string {
  const subject = ticket.subject ?? 'Ticket';
  return ticket.externalId ? `${subject} (${ticket.externalId})` : subject;
}

/**
 * The choices for a comparison: only completed simulations compare; B is over the same dataset as
 * A, and is never A itself.
 */
export function compareOptions(items: ListItem[], aId: string | null): { a: Option[]; b: Option[] } {
  const completed = items.filter((item) => item.status === 'completed');
  const toOption = (item: ListItem) => ({ value: item.id, label: simulationLabel(item) });
  const a = completed.find((item) => item.id === aId);
  const b = completed.filter((item) => item.id !== aId && (!a || item.datasetId === a.datasetId));
  return { a: completed.map(toOption), b: b.map(toOption) };
}

export interface ComparisonSummary {
  tickets: number;
  /** Tickets whose status differs between the runs. */
  statusChanged: number;
  questions: { questionId: string; changed: number; percent: number }[];
  /** Moves with a different status, most tickets first. */
  moves: Schemas['StatusChangeDto'][];
}

/** The comparison in the order a reader wants it: most changed questions and moves first. */
export function summarizeComparison(comparison: Schemas['SimulationComparisonDto']): ComparisonSummary {
  const { tickets } = comparison;
  const moves = comparison.statusChanges
    .filter((change) => change.from !== change.to && change.count > 0)
    .sort((a, b) => b.count - a.count);
  const questions = comparison.questions
    .map(({ questionId, changed }) => ({
      questionId,
      changed,
      percent: tickets > 0 ? Math.round((changed / tickets) * 100) : 0,
    }))
    .sort((a, b) => b.changed - a.changed || a.questionId.localeCompare(b.questionId));
  return { tickets, statusChanged: moves.reduce((sum, move) => sum + move.count, 0), questions, moves };
}

/** Where a simulation's results are downloaded as CSV (the session cookie goes with a same-origin link). */
export function simulationExportUrl(id: string): string {
  return `/api/simulations/${encodeURIComponent(id)}/export`;
}

/** Where a comparison's changed tickets are downloaded as CSV. */
export function comparisonExportUrl(id: string, otherId: string): string {
  return `/api/simulations/${encodeURIComponent(id)}/compare/${encodeURIComponent(otherId)}/export`;
}
