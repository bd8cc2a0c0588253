import type { Answer, Derived, EvaluationStatus, FailureKind } from './judgment.js';
import type { Outcome, PackDocument, Question } from './pack-document.js';

export interface Decision {
  status: EvaluationStatus;
  reviewReasons: string[];
  derived?: Derived;
}

/**
 * The probability of the selected answer: the chosen option's; the chosen side's for a boolean
 * (p when p >= 0.5, else 1 - p); the highest score probability. Absent probabilities count as 1.
 */
export function selectedProbability(answer: Answer): number {
  switch (answer.type) {
    case 'choice':
      return answer.probabilities?.[answer.choice] ?? 1;
    case 'boolean':
      return Math.max(answer.probability, 1 - answer.probability);
    case 'score': {
      const values = Object.values(answer.probabilities ?? {});
      return values.length ? Math.max(...values) : 1;
    }
  }
}

/** Each answered question's selected probability (stored with an evaluation, for calibration). */
export function selectedProbabilities(answers: Record<string, Answer>): Record<string, number> {
  return Object.fromEntries(Object.entries(answers).map(([id, answer]) => [id, selectedProbability(answer)]));
}

function selectedOutcome(question: Question, answer: Answer): Outcome | undefined {
  if (question.type === 'choice' && answer.type === 'choice') {
    return question.criteria.options.find((option) => option.value === answer.choice)?.outcome;
  }
  if (question.type === 'boolean' && answer.type === 'boolean') {
    return answer.probability >= 0.5 ? question.criteria.outcomeWhenTrue : question.criteria.outcomeWhenFalse;
  }
  return undefined;
}

function derive(document: PackDocument, answers: Record<string, Answer>): Derived | undefined {
  const derived: Derived = {};
  for (const question of document.questions) {
    const answer = answers[question.id];
    if (question.type !== 'choice' || answer?.type !== 'choice' || !question.criteria.derive) continue;
    if (question.criteria.derive === 'tags') derived.tags = [...(derived.tags ?? []), answer.choice];
    else derived[question.criteria.derive] = answer.choice;
  }
  return Object.keys(derived).length ? derived : undefined;
}

/**
 * A question's calibrated probability for the judge's selected probability, or undefined when the
 * question has no calibration map (docs/quality.md, "Calibration").
 */
export type Calibrate = (questionId: string, selectedProbability: number) => number | undefined;

/** The probability the rule compares with the threshold: the calibrated one for a question that opts in and has a map. */
function comparedProbability(question: Question, answer: Answer, calibrate: Calibrate | undefined): number {
  const probability = selectedProbability(answer);
  if (!question.review.useCalibrated || !calibrate) return probability;
  return calibrate(question.id, probability) ?? probability;
}

/**
 * The decision rule, in order: a failure -> review (its kind is the reason); any question below its
 * review.minSelectedProbability or whose selected outcome is `review` -> review (one reason per
 * question); any selected outcome `reject` -> reject; otherwise accept. A question with
 * `review.useCalibrated` is compared by its calibrated probability when `calibrate` knows a map for it.
 */
export function decide(
  document: PackDocument,
  answers: Record<string, Answer>,
  failure?: FailureKind,
  calibrate?: Calibrate,
): Decision {
  if (failure) return { status: 'review', reviewReasons: [failure] };
  const reviewReasons: string[] = [];
  let rejected = false;
  for (const question of document.questions) {
    const answer = answers[question.id];
    if (!answer) continue;
    if (comparedProbability(question, answer, calibrate) < question.review.minSelectedProbability)
      reviewReasons.push(`low_confidence:${question.id}`);
    const outcome = selectedOutcome(question, answer);
    if (outcome === 'review') reviewReasons.push(`outcome_review:${question.id}`);
    if (outcome === 'reject') rejected = true;
  }
  const derived = derive(document, answers);
  const status: EvaluationStatus = reviewReasons.length ? 'review' : rejected ? 'reject' : 'accept';
  return derived ? { status, reviewReasons, derived } : { status, reviewReasons };
}
