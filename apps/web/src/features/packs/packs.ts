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

export function newQuestion(type: QuestionType, document: PackDocument): Question {
  const id = nextQuestionId(document);
  return {
    type,
    id,
    name: `Question ${document.questions.length + 1}`,
    instructions: '',
    criteria: defaultCriteria(type),
    review: { minSelectedProbability: 0.6 },
  } as Question;
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

/** Whether the edited draft differs from the saved one (name or document). */
export function hasChanges(
  saved: { name: string; document: PackDocument },
  edited: { name: string; document: PackDocument },
): boolean {
  return saved.name !== edited.name || JSON.stringify(saved.document) !== JSON.stringify(edited.document);
}
