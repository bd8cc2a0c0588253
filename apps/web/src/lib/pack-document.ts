import type { Schemas } from '../api/client';

/** A pack document as the pack pages and the playground read it. */

export type PackDocument = Schemas['PackDocumentDto'];
/** A question: by its `type`, the criteria of that type (the API's discriminated union). */
export type Question = PackDocument['questions'][number];
export type ChoiceOption = Schemas['ChoiceOptionDto'];

/** The options of a choice question; none for the other types. */
export function choiceOptions(question: Question): ChoiceOption[] {
  return question.type === 'choice' ? question.criteria.options : [];
}

/** The document of a version when the pack carries it: the draft or the live version. */
export function documentForVersion(
  pack: Pick<Schemas['PackDto'], 'draftVersionId' | 'liveVersionId' | 'document' | 'liveDocument'>,
  versionId: string,
): PackDocument | undefined {
  if (versionId === pack.draftVersionId) return pack.document;
  if (versionId === pack.liveVersionId) return pack.liveDocument ?? undefined;
  return undefined;
}

export function findQuestion(document: PackDocument | undefined, id: string): Question | undefined {
  return document?.questions.find((question) => question.id === id);
}
