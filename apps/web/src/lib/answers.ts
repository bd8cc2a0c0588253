import type { Schemas } from '../api/client';

type Answer = Schemas['AnswerDto'];

/** What an answer says: the choice, True/False, the score (with the question's maximum when known). */
export function answerText(
  answer: Answer | undefined,
  question?: Schemas['PackDocumentDto']['questions'][number],
): string {
  if (!answer) return 'No answer';
  switch (answer.type) {
    case 'choice':
      return answer.choice ?? '—';
    case 'boolean':
      return (answer.probability ?? 0) >= 0.5 ? 'True' : 'False';
    case 'score': {
      if (answer.score === undefined) return '—';
      return question?.type === 'score'
        ? `${answer.score} of ${question.criteria.max}`
        : String(answer.score);
    }
  }
}

/** The judging failures a result can carry instead of answers, in words. */
const FAILURES: Record<string, string> = {
  gateway_auth: 'The model gateway refused the credentials',
  gateway_unavailable: 'The model gateway was unavailable',
  invalid_model_output: 'The model gave an unreadable answer',
  invalid_pack: 'The pack version is invalid or has no questions',
  invalid_ticket: 'The ticket is blank or too long',
};

/** A review reason in words, naming the question when its name is known. */
export function reasonText(reason: string, names: ReadonlyMap<string, string> = new Map()): string {
  if (FAILURES[reason]) return FAILURES[reason];
  const [kind, ...rest] = reason.split(':');
  const questionId = rest.join(':');
  const name = names.get(questionId) ?? questionId;
  if (kind === 'low_confidence' && questionId) return `Low confidence on “${name}”`;
  if (kind === 'outcome_review' && questionId) return `“${name}” asks for review`;
  return reason;
}
