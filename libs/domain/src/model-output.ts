import type { PackDocument, Question, ScoreQuestion } from './pack-document.js';
import type { Answer } from './judgment.js';

type JsonSchema = Record<string, unknown>;

/** Score questions get a probability per value when their range is a short run of integers. */
export function scoreValues(question: ScoreQuestion): string[] | null {
  const { min, max } = question.criteria;
  if (!Number.isInteger(min) || !Number.isInteger(max) || max - min > 10) return null;
  return Array.from({ length: max - min + 1 }, (_, i) => String(min + i));
}

function probabilityMap(keys: string[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(keys.map((key) => [key, { type: 'number', minimum: 0, maximum: 1 }])),
    required: keys,
    additionalProperties: false,
  };
}

function answerSchema(question: Question): JsonSchema {
  switch (question.type) {
    case 'choice': {
      const values = question.criteria.options.map((option) => option.value);
      return {
        type: 'object',
        properties: { choice: { type: 'string', enum: values }, probabilities: probabilityMap(values) },
        required: ['choice', 'probabilities'],
        additionalProperties: false,
      };
    }
    case 'boolean':
      return {
        type: 'object',
        properties: {
          probability: {
            type: 'number',
            minimum: 0,
            maximum: 1,
            description: 'Probability that the answer is true',
          },
        },
        required: ['probability'],
        additionalProperties: false,
      };
    case 'score': {
      const values = scoreValues(question);
      const score = { type: 'number', minimum: question.criteria.min, maximum: question.criteria.max };
      return values
        ? {
            type: 'object',
            properties: { score, probabilities: probabilityMap(values) },
            required: ['score', 'probabilities'],
            additionalProperties: false,
          }
        : { type: 'object', properties: { score }, required: ['score'], additionalProperties: false };
    }
  }
}

/**
 * The JSON Schema for a strict structured-output call: one property per question id, the choice
 * enum from the option values, probabilities as numbers. Strict mode needs every property required.
 */
export function buildResponseSchema(document: PackDocument): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(
      document.questions.map((question) => [question.id, answerSchema(question)]),
    ),
    required: document.questions.map((question) => question.id),
    additionalProperties: false,
  };
}

export type ParsedOutput = { ok: true; answers: Record<string, Answer> } | { ok: false; reason: string };

const isProbability = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseProbabilities(
  value: unknown,
  allowedKeys: string[] | null,
): Record<string, number> | null | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) return null;
  for (const [key, probability] of Object.entries(value)) {
    if (!isProbability(probability) || (allowedKeys && !allowedKeys.includes(key))) return null;
  }
  return value as Record<string, number>;
}

/** One answer checked against its question: the model's answers, and reviewers' labels, go through it. */
export function parseAnswer(question: Question, raw: unknown): Answer | string {
  if (!isRecord(raw)) return `answer to "${question.id}" is not an object`;
  switch (question.type) {
    case 'choice': {
      const values = question.criteria.options.map((option) => option.value);
      if (typeof raw.choice !== 'string' || !values.includes(raw.choice))
        return `unknown choice for "${question.id}"`;
      const probabilities = parseProbabilities(raw.probabilities, values);
      if (probabilities === null) return `bad probabilities for "${question.id}"`;
      // The chosen option's probability decides review; a map without it cannot be trusted.
      if (probabilities && !(raw.choice in probabilities))
        return `no probability for the choice of "${question.id}"`;
      return probabilities
        ? { type: 'choice', choice: raw.choice, probabilities }
        : { type: 'choice', choice: raw.choice };
    }
    case 'boolean':
      return isProbability(raw.probability)
        ? { type: 'boolean', probability: raw.probability }
        : `bad probability for "${question.id}"`;
    case 'score': {
      const { min, max } = question.criteria;
      if (
        typeof raw.score !== 'number' ||
        !Number.isFinite(raw.score) ||
        raw.score < min ||
        raw.score > max
      ) {
        return `score out of range for "${question.id}"`;
      }
      const probabilities = parseProbabilities(raw.probabilities, null);
      if (probabilities === null) return `bad probabilities for "${question.id}"`;
      return probabilities
        ? { type: 'score', score: raw.score, probabilities }
        : { type: 'score', score: raw.score };
    }
  }
}

/** Checks a model's JSON text against the pack: every question answered, in its type and range. */
export function parseModelOutput(document: PackDocument, text: string | null | undefined): ParsedOutput {
  let raw: unknown;
  try {
    raw = JSON.parse(text ?? '');
  } catch {
    return { ok: false, reason: 'output is not JSON' };
  }
  if (!isRecord(raw)) return { ok: false, reason: 'output is not an object' };
  const answers: Record<string, Answer> = {};
  for (const question of document.questions) {
    if (!(question.id in raw)) return { ok: false, reason: `no answer for "${question.id}"` };
    const answer = parseAnswer(question, raw[question.id]);
    if (typeof answer === 'string') return { ok: false, reason: answer };
    answers[question.id] = answer;
  }
  return { ok: true, answers };
}
