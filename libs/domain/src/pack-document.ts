import { z } from 'zod';
import type { ValidationIssue } from './errors.js';

export const OUTCOMES = ['accept', 'review', 'reject'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const DERIVE_TARGETS = ['department', 'priority', 'tags'] as const;
export type DeriveTarget = (typeof DERIVE_TARGETS)[number];
export const QUESTION_TYPES = ['choice', 'boolean', 'score'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** A question's id: what answers, labels and expected answers are keyed by. */
export const QUESTION_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const outcome = z.enum(OUTCOMES);
/**
 * `useCalibrated`: the decision rule compares the question's calibrated probability, where a map
 * exists, with `minSelectedProbability` instead of the judge's own (docs/quality.md, "Calibration").
 */
const review = z
  .object({ minSelectedProbability: z.number().min(0).max(1), useCalibrated: z.boolean().optional() })
  .loose();
const base = {
  id: z.string().regex(QUESTION_ID_PATTERN, 'must be 1 to 64 letters, digits, _ or -'),
  name: z.string().min(1, 'must not be empty'),
  instructions: z.string(),
  review,
};

const choiceOption = z
  .object({
    value: z.string().min(1, 'must not be empty'),
    description: z.string().optional(),
    outcome: outcome.optional(),
  })
  .loose();

/** Unknown keys inside `criteria` (and questions) are kept: `loose()` passes them through. */
export const choiceQuestionSchema = z
  .object({
    type: z.literal('choice'),
    ...base,
    criteria: z
      .object({
        options: z.array(choiceOption).min(2, 'needs at least 2 options'),
        derive: z.enum(DERIVE_TARGETS).optional(),
      })
      .loose()
      .superRefine((criteria, ctx) => {
        const seen = new Set<string>();
        criteria.options.forEach((option, index) => {
          if (seen.has(option.value)) {
            ctx.addIssue({
              code: 'custom',
              path: ['options', index, 'value'],
              message: `duplicate option value "${option.value}"`,
            });
          }
          seen.add(option.value);
        });
      }),
  })
  .loose();

export const booleanQuestionSchema = z
  .object({
    type: z.literal('boolean'),
    ...base,
    criteria: z
      .object({
        description: z.string().optional(),
        outcomeWhenTrue: outcome.optional(),
        outcomeWhenFalse: outcome.optional(),
      })
      .loose(),
  })
  .loose();

export const scoreQuestionSchema = z
  .object({
    type: z.literal('score'),
    ...base,
    criteria: z
      .object({ min: z.number(), max: z.number(), description: z.string().optional() })
      .loose()
      .refine((criteria) => criteria.min < criteria.max, {
        message: 'min must be less than max',
        path: ['max'],
      }),
  })
  .loose();

export const questionSchema = z.discriminatedUnion('type', [
  choiceQuestionSchema,
  booleanQuestionSchema,
  scoreQuestionSchema,
]);

export const packDocumentSchema = z
  .object({ questions: z.array(questionSchema) })
  .loose()
  .superRefine((document, ctx) => {
    const seen = new Set<string>();
    document.questions.forEach((question, index) => {
      if (seen.has(question.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['questions', index, 'id'],
          message: `duplicate question id "${question.id}"`,
        });
      }
      seen.add(question.id);
    });
  });

export type ChoiceQuestion = z.infer<typeof choiceQuestionSchema>;
export type BooleanQuestion = z.infer<typeof booleanQuestionSchema>;
export type ScoreQuestion = z.infer<typeof scoreQuestionSchema>;
export type Question = z.infer<typeof questionSchema>;
export type PackDocument = z.infer<typeof packDocumentSchema>;

export const EMPTY_PACK_DOCUMENT: PackDocument = { questions: [] };

export type PackDocumentCheck =
  { ok: true; document: PackDocument } | { ok: false; issues: ValidationIssue[] };

/** Checks a pack document's structure; issue paths are relative to the document (`questions.2.id`). */
export function checkPackDocument(input: unknown): PackDocumentCheck {
  const result = packDocumentSchema.safeParse(input);
  if (result.success) return { ok: true, document: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((issue) => ({
      path: issue.path.length ? issue.path.map(String).join('.') : 'document',
      message: issue.message,
    })),
  };
}
