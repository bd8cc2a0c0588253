import { buildResponseSchema, type PackDocument, type Ticket } from '@app/domain';

type JsonSchema = ReturnType<typeof buildResponseSchema>;

export const SYSTEM_PROMPT = [
  'You are a careful support-operations analyst. Judge the customer-support ticket against every question of the pack.',
  'Answer every question, following its instructions and criteria.',
  'Choice questions: pick exactly one option and give a probability for every option (they sum to 1).',
  'Boolean questions: give the probability that the answer is true.',
  'Score questions: give a score within [min, max] and, when asked, a probability for each value.',
  'Probabilities are your honest confidence: use low values when the ticket does not say.',
  'Reply with JSON only, matching the response schema.',
].join('\n');

/** What a call needs from a pack version, built once per document object. */
interface DocumentParts {
  questionsJson: string;
  responseSchema: JsonSchema;
}

/**
 * Live versions (from the hot-path cache) and published versions (in the worker) are handed out as
 * the same document object for every judgment, so their prompt and schema parts are built once.
 */
const parts = new WeakMap<PackDocument, DocumentParts>();

function partsOf(document: PackDocument): DocumentParts {
  let built = parts.get(document);
  if (!built) {
    const questions = document.questions.map(({ id, type, name, instructions, criteria }) => ({
      id,
      type,
      name,
      instructions,
      criteria,
    }));
    built = { questionsJson: JSON.stringify(questions), responseSchema: buildResponseSchema(document) };
    parts.set(document, built);
  }
  return built;
}

/** The user message: the pack's questions and the (redacted) ticket, as JSON (`{questions, ticket}`). */
export function buildUserPrompt(document: PackDocument, ticket: Ticket): string {
  return `{"questions":${partsOf(document).questionsJson},"ticket":${JSON.stringify(ticket)}}`;
}

/** The strict JSON schema of the answer: one property per question id. */
export function responseSchemaOf(document: PackDocument): JsonSchema {
  return partsOf(document).responseSchema;
}
