import type { PackDocument, Ticket } from '@app/domain';

export const SYSTEM_PROMPT = [
  'You are a careful support-operations analyst. Judge the customer-support ticket against every question of the pack.',
  'Answer every question, following its instructions and criteria.',
  'Choice questions: pick exactly one option and give a probability for every option (they sum to 1).',
  'Boolean questions: give the probability that the answer is true.',
  'Score questions: give a score within [min, max] and, when asked, a probability for each value.',
  'Probabilities are your honest confidence: use low values when the ticket does not say.',
  'Reply with JSON only, matching the response schema.',
].join('\n');

/** The user message: the pack's questions and the (redacted) ticket, as JSON. */
export function buildUserPrompt(document: PackDocument, ticket: Ticket): string {
  const questions = document.questions.map(({ id, type, name, instructions, criteria }) => ({
    id,
    type,
    name,
    instructions,
    criteria,
  }));
  return JSON.stringify({ questions, ticket });
}
