import { z } from 'zod';
import { answerCategory } from './calibration.js';
import type { Answer } from './judgment.js';
import { QUESTION_ID_PATTERN } from './pack-document.js';

/**
 * A dataset ticket's expected answer to one question, as the caller wrote it: a choice's value, a
 * boolean (or `true`/`false`, `yes`/`no` as text, as CSV cells are), a score (or its digits as text).
 * The dataset belongs to no pack, so only this shape is checked at upload; what it means is decided
 * against the question of the version a simulation runs (`expectedAgrees`).
 */
export type ExpectedAnswer = string | number | boolean;
export type ExpectedAnswers = Record<string, ExpectedAnswer>;

export const EXPECTED_ANSWER_LIMITS = { entries: 100, text: 1_000 } as const;

export const expectedAnswersSchema = z
  .record(
    z.string().regex(QUESTION_ID_PATTERN),
    z.union([z.string().min(1).max(EXPECTED_ANSWER_LIMITS.text), z.number(), z.boolean()]),
  )
  .meta({
    maxProperties: EXPECTED_ANSWER_LIMITS.entries,
    description:
      'Expected answers by question id: a choice value, a boolean (or "true"/"false", "yes"/"no") or a score. Checked against the questions of the version a simulation runs, not at upload.',
    example: { department: 'billing', refund_request: true, resolution_complexity: 2 },
  });

const TRUE_TEXT = new Set(['true', 'yes']);
const FALSE_TEXT = new Set(['false', 'no']);

/** The expected side of a boolean question, or undefined when the value names none. */
function expectedSide(expected: ExpectedAnswer): boolean | undefined {
  if (typeof expected === 'boolean') return expected;
  if (typeof expected === 'number') return expected === 1 ? true : expected === 0 ? false : undefined;
  const text = expected.trim().toLowerCase();
  return TRUE_TEXT.has(text) ? true : FALSE_TEXT.has(text) ? false : undefined;
}

/**
 * Whether the model's answer is the expected one: the same choice (text compared trimmed), the
 * same side of a boolean (probability at least 0.5 is true, as labels count it), the same score
 * (text compared as a number). No answer (a failed judgment) never agrees.
 */
export function expectedAgrees(answer: Answer | undefined, expected: ExpectedAnswer): boolean {
  if (!answer) return false;
  switch (answer.type) {
    case 'choice':
      return String(expected).trim() === answer.choice;
    case 'boolean':
      return expectedSide(expected) === answer.probability >= 0.5;
    case 'score': {
      const value = typeof expected === 'string' && expected.trim() !== '' ? Number(expected) : expected;
      return value === answer.score;
    }
  }
}

/** One judged ticket that carries expected answers, with the model's answers of one simulation. */
export interface ExpectedTicket {
  ticketId: string;
  position: number;
  externalId: string | null;
  subject: string;
  evaluationId: string;
  expected: ExpectedAnswers;
  answers: Record<string, Answer>;
}

export interface QuestionAgreement {
  questionId: string;
  /** Judged tickets with an expected answer to this question. */
  compared: number;
  agreed: number;
  /** agreed / compared; null when nothing was compared. */
  rate: number | null;
}

export interface ExpectedDisagreement {
  ticketId: string;
  position: number;
  externalId: string | null;
  subject: string;
  evaluationId: string;
  questionId: string;
  expected: ExpectedAnswer;
  /** The model's answer as labels count it (`answerCategory`); null when it gave none. */
  answer: string | null;
}

export interface ExpectedAgreementReport {
  questions: QuestionAgreement[];
  /** By ticket position, then in question order. */
  disagreements: ExpectedDisagreement[];
}

/**
 * A simulation against its dataset's expected answers, for the questions of its version (in the
 * version's order): expected answers to other question ids are not counted.
 */
export function expectedAgreement(questionIds: string[], tickets: ExpectedTicket[]): ExpectedAgreementReport {
  const disagreements: ExpectedDisagreement[] = [];
  const counts = new Map(questionIds.map((id) => [id, { compared: 0, agreed: 0 }]));
  for (const ticket of [...tickets].sort((a, b) => a.position - b.position)) {
    for (const questionId of questionIds) {
      if (!Object.hasOwn(ticket.expected, questionId)) continue;
      const expected = ticket.expected[questionId];
      const answer = Object.hasOwn(ticket.answers, questionId) ? ticket.answers[questionId] : undefined;
      const count = counts.get(questionId)!;
      count.compared += 1;
      if (expectedAgrees(answer, expected)) {
        count.agreed += 1;
        continue;
      }
      disagreements.push({
        ticketId: ticket.ticketId,
        position: ticket.position,
        externalId: ticket.externalId,
        subject: ticket.subject,
        evaluationId: ticket.evaluationId,
        questionId,
        expected,
        answer: answer ? answerCategory(answer) : null,
      });
    }
  }
  return {
    questions: questionIds.map((questionId) => {
      const { compared, agreed } = counts.get(questionId)!;
      return { questionId, compared, agreed, rate: compared ? agreed / compared : null };
    }),
    disagreements,
  };
}
