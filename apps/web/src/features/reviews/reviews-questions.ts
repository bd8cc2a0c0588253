import type { Schemas } from '../../api/client';
import { agreeingLabel } from './reviews';

type Answer = Schemas['AnswerDto'];
type Label = Schemas['LabelDto'];
type Pack = Schemas['PackDto'];
type PackDocument = Schemas['PackDocumentDto'];
type QuestionType = PackDocument['questions'][number]['type'];

// The questions an evaluation is labeled on, as the review page lists them.

export interface QuestionSpec {
  id: string;
  name: string;
  type: QuestionType;
  instructions: string;
  /** Choice options; null when unknown (the form then takes free text). */
  options: Array<{ value: string; description?: string }> | null;
  min?: number;
  max?: number;
}

/** The document of the evaluation's version when the pack still shows it (live or draft). */
export function versionDocument(
  packVersionId: string,
  pack: Pack | undefined,
): { document: PackDocument | undefined; exact: boolean } {
  if (!pack) return { document: undefined, exact: false };
  if (pack.liveDocument && pack.liveVersionId === packVersionId)
    return { document: pack.liveDocument, exact: true };
  if (pack.draftVersionId === packVersionId) return { document: pack.document, exact: true };
  return { document: pack.liveDocument ?? pack.document, exact: false };
}

function optionOf(option: Schemas['ChoiceOptionDto']): { value: string; description?: string } {
  return option.description === undefined
    ? { value: option.value }
    : { value: option.value, description: option.description };
}

/** A question known only from an answer: options and range read off the probabilities. */
function inferred(id: string, answer: Answer): QuestionSpec {
  const keys = Object.keys(answer.probabilities ?? {});
  if (answer.type === 'choice') {
    const values = [...new Set([...keys, ...(answer.choice ? [answer.choice] : [])])];
    return {
      id,
      name: id,
      type: 'choice',
      instructions: '',
      options: keys.length ? values.map((value) => ({ value })) : null,
    };
  }
  const scores = keys.map(Number).filter(Number.isFinite);
  return {
    id,
    name: id,
    type: answer.type,
    instructions: '',
    options: null,
    ...(answer.type === 'score' && scores.length
      ? { min: Math.min(...scores), max: Math.max(...scores) }
      : {}),
  };
}

/**
 * The questions to label, in the pack's order: the version's own questions when the pack still
 * shows that version; otherwise the questions the model answered or that carry labels, described
 * from the pack when a question of the same id and type is there, else from the answer alone.
 */
export function questionSpecs(
  evaluation: { packVersionId: string; result: { answers: Record<string, Answer> }; labels: Label[] },
  pack: Pack | undefined,
): QuestionSpec[] {
  const { document, exact } = versionDocument(evaluation.packVersionId, pack);
  const answers = evaluation.result.answers ?? {};
  const docIds = document?.questions.map((question) => question.id) ?? [];
  let ids = [...Object.keys(answers), ...evaluation.labels.map((label) => label.questionId)];
  if (exact || !ids.length) ids = [...docIds, ...ids];
  ids = [...new Set(ids)];
  const order = (id: string) => (docIds.includes(id) ? docIds.indexOf(id) : docIds.length);
  ids.sort((a, b) => order(a) - order(b));

  return ids.map((id) => {
    const answer = answers[id] ?? evaluation.labels.find((label) => label.questionId === id)?.answer;
    const question = document?.questions.find((candidate) => candidate.id === id);
    if (question && (!answer || answer.type === question.type)) {
      return {
        id,
        name: question.name || id,
        type: question.type,
        instructions: question.instructions ?? '',
        options: question.type === 'choice' ? question.criteria.options.map(optionOf) : null,
        ...(question.type === 'score' ? { min: question.criteria.min, max: question.criteria.max } : {}),
      };
    }
    return answer
      ? inferred(id, answer)
      : { id, name: id, type: 'choice' as const, instructions: '', options: null };
  });
}

/** The first question without a label (and, when `answered`, with a model answer). */
export function firstUnlabeled(
  specs: QuestionSpec[],
  labels: Label[],
  answers: Record<string, Answer>,
  answered = false,
): QuestionSpec | undefined {
  return specs.find(
    (spec) => !labels.some((label) => label.questionId === spec.id) && (!answered || answers[spec.id]),
  );
}

/**
 * "Agree with all remaining questions": for each question without a label that the model answered,
 * the label that agrees with the model's answer, in the page's order.
 */
export function remainingAgreements(
  specs: QuestionSpec[],
  labels: Label[],
  answers: Record<string, Answer>,
): Array<{ questionId: string; answer: Answer }> {
  return specs
    .filter((spec) => answers[spec.id] && !labels.some((label) => label.questionId === spec.id))
    .map((spec) => ({ questionId: spec.id, answer: agreeingLabel(answers[spec.id]) }));
}
