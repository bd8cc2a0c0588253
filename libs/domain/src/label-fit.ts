import type { Answer } from './judgment.js';
import { parseAnswer } from './model-output.js';
import type { PackDocument, Question } from './pack-document.js';

export type LabelFit = { ok: true; answer: Answer } | { ok: false; error: string };

const misfit = (reason: string): LabelFit => ({ ok: false, error: `label does not fit: ${reason}` });
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields of each answer shape; a label with any other field is refused, not trimmed. */
const ANSWER_FIELDS: Record<Question['type'], readonly string[]> = {
  choice: ['type', 'choice', 'probabilities'],
  boolean: ['type', 'probability'],
  score: ['type', 'score', 'probabilities'],
};

/**
 * Checks a reviewer's answer against its question in the evaluation's pack version and returns it
 * in its stored shape (`{type, choice}`, `{type, probability: 0|1}`, `{type, score}`, with
 * `probabilities` kept when given and valid as in a model's answer).
 */
export function checkLabelFit(document: PackDocument, questionId: string, answer: unknown): LabelFit {
  const question = document.questions.find((candidate) => candidate.id === questionId);
  if (!question) return misfit(`question "${questionId}" is not in this pack version`);
  if (!isRecord(answer) || typeof answer.type !== 'string') return misfit('answer needs a type');
  if (answer.type !== question.type)
    return misfit(`question "${questionId}" is a ${question.type} question, not ${answer.type.slice(0, 64)}`);
  const unknown = Object.keys(answer).find((field) => !ANSWER_FIELDS[question.type].includes(field));
  if (unknown !== undefined)
    return misfit(`a ${question.type} answer has no field "${unknown.slice(0, 64)}"`);
  const fit = checkShape(question, questionId, answer);
  if (!fit.ok) return fit;
  // Beyond the label's own rules, the answer is checked exactly as a model's (probabilities included).
  const parsed = parseAnswer(question, answer);
  return typeof parsed === 'string' ? misfit(parsed) : { ok: true, answer: parsed };
}

function checkShape(question: Question, questionId: string, answer: Record<string, unknown>): LabelFit {
  switch (question.type) {
    case 'choice': {
      const values = question.criteria.options.map((option) => option.value);
      if (typeof answer.choice !== 'string' || !values.includes(answer.choice)) {
        return misfit(`choice must be one of the options of "${questionId}": ${values.join(', ')}`);
      }
      return { ok: true, answer: { type: 'choice', choice: answer.choice } };
    }
    case 'boolean':
      if (answer.probability !== 0 && answer.probability !== 1)
        return misfit('a boolean label has probability 0 or 1');
      return { ok: true, answer: { type: 'boolean', probability: answer.probability } };
    case 'score': {
      const { min, max } = question.criteria;
      if (
        typeof answer.score !== 'number' ||
        !Number.isFinite(answer.score) ||
        answer.score < min ||
        answer.score > max
      ) {
        return misfit(`score must be a number from ${min} to ${max} for "${questionId}"`);
      }
      return { ok: true, answer: { type: 'score', score: answer.score } };
    }
  }
}
