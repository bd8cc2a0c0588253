import type { Schemas } from '../api/client';
import { formatPercent } from './format';

type Answer = Schemas['AnswerDto'];

/** One value an answer could take, with the probability the model gave it. */
export interface ProbabilityRow {
  /** The option, the score, or True/False. */
  label: string;
  /** 0..1 */
  value: number;
  /** `value` as shown everywhere: a percentage with one decimal (`70%`, `12.5%`). */
  percent: string;
  /** The value the model chose. */
  selected: boolean;
}

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/** Keys of `probabilities` in the question's order: its options, or numeric order for scores. */
function orderedKeys(answer: Answer, optionOrder: readonly string[]): string[] {
  const keys = Object.keys(answer.probabilities ?? {});
  if (answer.type === 'score') return keys.sort((a, b) => Number(a) - Number(b));
  const rank = (key: string) => (optionOrder.includes(key) ? optionOrder.indexOf(key) : optionOrder.length);
  return keys.sort((a, b) => rank(a) - rank(b));
}

/**
 * An answer's probabilities, as the playground's result and the evaluation page both show them:
 * True then False for a boolean, the question's own option order for a choice (`optionOrder`;
 * values it does not list come last, as the answer gives them), ascending for a score; each
 * percentage through the one `formatPercent`, and the chosen value marked.
 */
export function probabilityRows(answer: Answer, optionOrder: readonly string[] = []): ProbabilityRow[] {
  const row = (label: string, value: number, selected: boolean): ProbabilityRow => ({
    label,
    value: clamp(value),
    percent: formatPercent(clamp(value), 1),
    selected,
  });
  if (answer.type === 'boolean') {
    const probability = clamp(answer.probability ?? 0);
    return [row('True', probability, probability >= 0.5), row('False', 1 - probability, probability < 0.5)];
  }
  const probabilities = answer.probabilities ?? {};
  const chosen = answer.type === 'choice' ? answer.choice : String(answer.score);
  return orderedKeys(answer, optionOrder).map((key) => row(key, probabilities[key], key === chosen));
}
