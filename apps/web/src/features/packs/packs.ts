import type { Schemas } from '../../api/client';
import type { PackDocument, Question } from '../../lib/pack-document';

/** Pure helpers of the pack pages: documents, questions, import and export. */

export type QuestionType = Question['type'];
export type PackVersion = Schemas['PackVersionDto'];

export const QUESTION_TYPES: { value: QuestionType; label: string }[] = [
  { value: 'choice', label: 'Choice' },
  { value: 'boolean', label: 'Boolean (yes / no)' },
  { value: 'score', label: 'Score' },
];
export const OUTCOMES = ['accept', 'review', 'reject'] as const;
export const DERIVE_TARGETS = ['department', 'priority', 'tags'] as const;

/** The smallest valid pack document: no questions yet. */
export const MINIMAL_DOCUMENT: PackDocument = { questions: [] };

/** `record` with `key` set, or removed when `value` is undefined or an empty string; unknown keys stay. */
export function withKey<T extends Record<string, unknown>>(record: T, key: string, value: unknown): T {
  const copy: Record<string, unknown> = { ...record };
  if (value === undefined || value === '') delete copy[key];
  else copy[key] = value;
  return copy as T;
}

/** The criteria a new question of this type starts with. */
export function defaultCriteria<T extends QuestionType>(type: T): Extract<Question, { type: T }>['criteria'];
export function defaultCriteria(type: QuestionType): Question['criteria'] {
  switch (type) {
    case 'choice':
      return { options: [{ value: 'yes' }, { value: 'no' }] };
    case 'boolean':
      return { description: '' };
    case 'score':
      return { min: 1, max: 5 };
  }
}

/** An id of the form `question_<n>` not used in the document yet. */
export function nextQuestionId(document: PackDocument): string {
  const used = new Set(document.questions.map((question) => question.id));
  let n = document.questions.length + 1;
  while (used.has(`question_${n}`)) n += 1;
  return `question_${n}`;
}

/**
 * How many answers the model chooses among, each with a probability: a choice's options, a boolean's
 * two sides, a score's integer values (when min and max are integers at most 10 apart). Null for a
 * score without probabilities (its selected probability always counts as 1).
 */
export function answerCount(question: Question): number | null {
  switch (question.type) {
    case 'choice': {
      // Raw JSON can leave a choice without its options for a moment.
      const options: unknown = question.criteria?.options;
      return Array.isArray(options) ? Math.max(2, options.length) : 2;
    }
    case 'boolean':
      return 2;
    case 'score': {
      const criteria: Partial<{ min: number; max: number }> = question.criteria ?? {};
      const { min, max } = criteria;
      if (typeof min !== 'number' || typeof max !== 'number') return null;
      const integers = Number.isInteger(min) && Number.isInteger(max) && max > min && max - min <= 10;
      return integers ? max - min + 1 : null;
    }
    default:
      return null;
  }
}

/**
 * The share of the way from chance (1/k) to certainty that a new question's threshold starts at:
 * 40% for choices and booleans; 25% for scores, whose neighbouring values share the probability (a
 * model sure of "3 or 4" on a 5-point scale gives each about 0.45). See docs/judging.md.
 */
const ABOVE_CHANCE = { choice: 0.4, boolean: 0.4, score: 0.25 } as const;

/**
 * The minimum selected probability a new question starts with, by type and number of answers:
 * chance (1/k) plus a share of the way to certainty, to two decimals. A boolean or a 2-option choice
 * gets 0.7, 3 options 0.6, 5 options 0.52; a 1–5 score 0.4 (0.6 sent every ticket of a 5-point score
 * to review); a score without probabilities 0 (any threshold would pass).
 */
export function defaultThreshold(question: Question): number {
  const k = answerCount(question);
  if (k === null) return 0;
  const chance = 1 / k;
  const share = ABOVE_CHANCE[question.type] ?? 0.4;
  return Math.round((chance + share * (1 - chance)) * 100) / 100;
}

/** The default in words, for the threshold's help text. */
export function defaultThresholdText(question: Question): string {
  const k = answerCount(question);
  if (k === null && question.type !== 'score') return '';
  if (k === null)
    return 'This score has no probabilities per value, so any threshold passes: 0 is the default.';
  const share = ABOVE_CHANCE[question.type] ?? 0.4;
  return `Default for ${k} possible answers: ${defaultThreshold(question)} (chance is 1/${k}; the default is ${Math.round(
    share * 100,
  )}% of the way from chance to certainty).`;
}

export function newQuestion(type: QuestionType, document: PackDocument): Question {
  const id = nextQuestionId(document);
  const question = {
    type,
    id,
    name: `Question ${document.questions.length + 1}`,
    instructions: '',
    criteria: defaultCriteria(type),
  } as Question;
  return { ...question, review: { minSelectedProbability: defaultThreshold(question) } };
}

/** The question as another type: criteria start over, every other field (unknown keys too) stays. */
export function changeQuestionType(question: Question, type: QuestionType): Question {
  if (question.type === type) return question;
  return { ...question, type, criteria: defaultCriteria(type) } as Question;
}

export type ParsedDocument = { ok: true; document: PackDocument } | { ok: false; error: string };

/** Raw JSON as a document the form can show: an object with `questions`, an array of objects. */
export function parseDocumentJson(text: string): ParsedDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'The document must be a JSON object.' };
  }
  const questions = (value as { questions?: unknown }).questions;
  if (!Array.isArray(questions)) return { ok: false, error: 'The document needs a "questions" array.' };
  const bad = questions.findIndex((item) => typeof item !== 'object' || item === null || Array.isArray(item));
  if (bad >= 0) return { ok: false, error: `questions[${bad}] must be an object.` };
  return { ok: true, document: value as PackDocument };
}

export type ParsedImport = { ok: true; body: Schemas['ImportPackDto'] } | { ok: false; error: string };

/**
 * An import from pasted or uploaded JSON: an export (`{name, document}`) or a bare document
 * (`{questions}`). A name typed in the form wins over the export's.
 */
export function parseImport(text: string, typedName: string): ParsedImport {
  if (!text.trim()) return { ok: false, error: 'Paste a pack export or choose a JSON file.' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'The file must hold a JSON object.' };
  }
  const record = value as Record<string, unknown>;
  const isExport = 'document' in record;
  const document = (isExport ? record.document : record) as PackDocument;
  const exportName = isExport && typeof record.name === 'string' ? record.name : '';
  const name = typedName.trim() || exportName.trim();
  if (!name) return { ok: false, error: 'Give the pack a name: the JSON has none.' };
  return { ok: true, body: { name, document } };
}

/** A file name for an export: the pack name in lower case, words joined with dashes. */
export function exportFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${slug || 'pack'}.json`;
}

/** Readable lines describing a question's criteria and threshold, for side-by-side comparison. */
export function describeCriteria(question: Question): string[] {
  const lines: string[] = [];
  if (question.type === 'choice') {
    const { options, derive } = question.criteria;
    for (const option of options) {
      const parts = [option.value];
      if (option.description) parts.push(`: ${option.description}`);
      if (option.outcome) parts.push(` → ${option.outcome}`);
      lines.push(`Option ${parts.join('')}`);
    }
    if (derive) lines.push(`Derives ${derive}`);
  } else if (question.type === 'boolean') {
    const { description, outcomeWhenTrue, outcomeWhenFalse } = question.criteria;
    if (description) lines.push(`Description: ${description}`);
    if (outcomeWhenTrue) lines.push(`When true → ${outcomeWhenTrue}`);
    if (outcomeWhenFalse) lines.push(`When false → ${outcomeWhenFalse}`);
  } else {
    const { min, max, description } = question.criteria;
    lines.push(`Score from ${min} to ${max}`);
    if (description) lines.push(`Description: ${description}`);
  }
  const threshold = question.review?.minSelectedProbability;
  if (typeof threshold === 'number') lines.push(`Review below ${threshold}`);
  return lines;
}

/** The value at a dotted path of the compare route's `changedPaths` (`criteria.options.1.value`). */
export function valueAtPath(value: unknown, path: string): unknown {
  if (path === '.' || path === '') return value;
  return path.split('.').reduce<unknown>((current, key) => {
    if (current === null || typeof current !== 'object') return undefined;
    return (current as Record<string, unknown>)[key];
  }, value);
}

/** A changed value as compare shows it: text as is, anything else as JSON, a missing one as "—". */
export function formatValue(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  return JSON.stringify(value);
}

/** The threshold preview in words: the share of the last days' live traffic sent to review. */
export function thresholdPreviewText(
  preview: Pick<
    Schemas['ThresholdPreviewDto'],
    'threshold' | 'days' | 'evaluated' | 'belowThreshold' | 'reviewShare'
  >,
  percent: (value: number | null) => string,
): string {
  if (preview.evaluated === 0)
    return `No live evaluation answered this question in the last ${preview.days} days: nothing to preview yet.`;
  return `At ${preview.threshold}, this question would have sent ${percent(preview.reviewShare)} of the last ${
    preview.days
  } days to review (${preview.belowThreshold} of ${preview.evaluated} live evaluations).`;
}

/** Why Publish is not offered, or undefined when it is: a saved draft with questions, unlike the live one. */
export function publishBlocker(
  pack: Pick<Schemas['PackDto'], 'document' | 'unpublishedChanges'>,
): string | undefined {
  if (pack.document.questions.length === 0) return 'Add a question and save the draft before publishing.';
  if (!pack.unpublishedChanges) return 'Nothing to publish: the saved draft is the same as the live version.';
  return undefined;
}

/** Whether the edited draft differs from the saved one (name or document). */
export function hasChanges(
  saved: { name: string; document: PackDocument },
  edited: { name: string; document: PackDocument },
): boolean {
  return saved.name !== edited.name || JSON.stringify(saved.document) !== JSON.stringify(edited.document);
}
