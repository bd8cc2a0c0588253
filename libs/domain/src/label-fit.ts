import type { Answer } from './judgment.js';
import type { PackDocument } from './pack-document.js';

export type LabelFit = { ok: true; answer: Answer } | { ok: false; error: string };

const misfit = (reason: string): LabelFit => ({ ok: false, error: `label does not fit: ${reason}` });
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a reviewer's answer against its question in the evaluation's pack version and returns it
 * in its stored shape (`{type, choice}`, `{type, probability: 0|1}`, `{type, score}`).
 */
export function checkLabelFit(document: PackDocument, questionId: string, answer: unknown): LabelFit {
  const question = document.questions.find((candidate) => candidate.id === questionId);
  if (!question) return misfit(`question "${questionId}" is not in this pack version`);
  if (!isRecord(answer) || typeof answer.type !== 'string') return misfit('answer needs a type');
  if (answer.type !== question.type)
    return misfit(`question "${questionId}" is a ${question.type} question, not ${answer.type}`);
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
