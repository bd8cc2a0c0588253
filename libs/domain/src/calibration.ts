import { selectedProbability } from './decision.js';
import type { Answer } from './judgment.js';
import type { Question } from './pack-document.js';

/** One labeled question: the model's answer (absent when the judgment failed) and the reviewer's. */
export interface LabeledAnswer {
  model: Answer | undefined;
  label: Answer;
}

export interface ReliabilityBin {
  /** Lower bound of the bin: model selected probability in [from, from + 0.1), the last bin includes 1. */
  from: number;
  to: number;
  count: number;
  /** Share of labels agreeing with the model in this bin; null for an empty bin. */
  agreement: number | null;
  /**
   * Mean calibrated probability of the bin's labeled answers, from the question's map: what the map
   * says their agreement is, to set beside `agreement` (raw against calibrated). Null for an empty
   * bin or a question without a map.
   */
  calibrated: number | null;
}

export interface QuestionCalibration {
  questionId: string;
  type: Question['type'];
  labeled: number;
  agreementRate: number | null;
  /** Cohen's kappa between model and reviewers (choice and boolean only). */
  kappa: number | null;
  /** `matrix[i][j]`: labels whose model answer is `categories[i]` and reviewer answer `categories[j]`. */
  confusion: { categories: string[]; matrix: number[][] };
  reliability: ReliabilityBin[];
  /** Lowest threshold whose labeled answers at or above it agree at least `targetAgreement`. */
  suggestedMinSelectedProbability: number | null;
  /**
   * Labels still needed before the suggestion is worth applying (`MIN_LABELS_FOR_SUGGESTION` minus
   * `labeled`, at least 0). The suggestion itself is computed from any number of labels, as before.
   */
  labelsNeededForSuggestion: number;
}

/**
 * Labels a question needs before its suggested threshold is offered (docs/reviews.md): with fewer, the
 * agreement above a threshold is measured on a handful of tickets. With 30 labels that all agree, the
 * "rule of three" still allows a disagreement rate up to 3/30 = 10% at 95% confidence, and the standard
 * error of a 95% agreement rate is about 4 points; with the 2 labels it was offered from, a single
 * label moves the agreement by 50 points.
 */
export const MIN_LABELS_FOR_SUGGESTION = 30;

/** Labels still needed before a question's suggested threshold is offered. */
export function labelsNeededForSuggestion(labeled: number): number {
  return Math.max(0, MIN_LABELS_FOR_SUGGESTION - labeled);
}

/** The category an answer falls in: the choice, the side of a boolean, the score; `(none)` without an answer. */
export function answerCategory(answer: Answer | undefined): string {
  if (!answer) return '(none)';
  switch (answer.type) {
    case 'choice':
      return answer.choice;
    case 'boolean':
      return answer.probability >= 0.5 ? 'true' : 'false';
    case 'score':
      return String(answer.score);
  }
}

/** Agreement as labels define it: same choice, same boolean side, same score; never without a model answer. */
export function agrees(model: Answer | undefined, label: Answer): boolean {
  return model !== undefined && model.type === label.type && answerCategory(model) === answerCategory(label);
}

/** Cohen's kappa = (p_o - p_e) / (1 - p_e), p_e = sum over categories of p_model(k) * p_label(k). */
export function cohensKappa(pairs: Array<[string, string]>): number | null {
  const n = pairs.length;
  if (!n) return null;
  const model = new Map<string, number>();
  const label = new Map<string, number>();
  let observed = 0;
  for (const [m, l] of pairs) {
    model.set(m, (model.get(m) ?? 0) + 1);
    label.set(l, (label.get(l) ?? 0) + 1);
    if (m === l) observed++;
  }
  const po = observed / n;
  let pe = 0;
  for (const [category, count] of model) pe += (count / n) * ((label.get(category) ?? 0) / n);
  // Both raters used one and the same category throughout: chance agreement is 1, kappa undefined.
  if (pe === 1) return null;
  return (po - pe) / (1 - pe);
}

function reliability(items: LabeledAnswer[], calibrate?: (probability: number) => number): ReliabilityBin[] {
  const bins = Array.from({ length: 10 }, (_, i) => ({
    count: 0,
    agreeing: 0,
    calibrated: 0,
    from: i / 10,
    to: (i + 1) / 10,
  }));
  for (const { model, label } of items) {
    if (!model) continue;
    const probability = selectedProbability(model);
    const bin = bins[Math.min(9, Math.floor(probability * 10))];
    bin.count++;
    if (agrees(model, label)) bin.agreeing++;
    if (calibrate) bin.calibrated += calibrate(probability);
  }
  return bins.map(({ from, to, count, agreeing, calibrated }) => ({
    from,
    to,
    count,
    agreement: count ? agreeing / count : null,
    calibrated: count && calibrate ? calibrated / count : null,
  }));
}

/**
 * The lowest threshold t among the labeled answers' selected probabilities such that the answers
 * with probability >= t agree with their labels at rate >= target. Null when no threshold reaches it.
 */
export function suggestThreshold(items: LabeledAnswer[], targetAgreement: number): number | null {
  const scored = items
    .filter((item): item is { model: Answer; label: Answer } => item.model !== undefined)
    .map((item) => ({ p: selectedProbability(item.model), agree: agrees(item.model, item.label) }))
    .sort((a, b) => a.p - b.p);
  let agreeing = scored.filter((item) => item.agree).length;
  for (let i = 0; i < scored.length;) {
    const threshold = scored[i].p;
    if (agreeing / (scored.length - i) >= targetAgreement) return threshold;
    // Raise the threshold past every answer at this probability.
    for (; i < scored.length && scored[i].p === threshold; i++) if (scored[i].agree) agreeing--;
  }
  return null;
}

/**
 * Everything the calibration report says about one question, in one pass over its labels.
 * `calibrate`: the question's map, when it has one (its reliability bins then carry `calibrated`).
 */
export function calibrateQuestion(
  question: Question,
  items: LabeledAnswer[],
  targetAgreement: number,
  calibrate?: (probability: number) => number,
): QuestionCalibration {
  const pairs = items.map(
    ({ model, label }) => [answerCategory(model), answerCategory(label)] as [string, string],
  );
  const categories = [...new Set(pairs.flat())].sort();
  const index = new Map(categories.map((category, i) => [category, i]));
  const matrix = categories.map(() => categories.map(() => 0));
  for (const [m, l] of pairs) matrix[index.get(m)!][index.get(l)!]++;
  const agreeing = items.filter(({ model, label }) => agrees(model, label)).length;
  return {
    questionId: question.id,
    type: question.type,
    labeled: items.length,
    agreementRate: items.length ? agreeing / items.length : null,
    kappa: question.type === 'score' ? null : cohensKappa(pairs),
    confusion: { categories, matrix },
    reliability: reliability(items, calibrate),
    suggestedMinSelectedProbability: suggestThreshold(items, targetAgreement),
    labelsNeededForSuggestion: labelsNeededForSuggestion(items.length),
  };
}

/** Answers counted against a threshold: how many, and how many fall below it (so go to review). */
export interface ThresholdCount {
  answered: number;
  below: number;
}

/** Selected probabilities are counted per version and question in bins of 1 / PROBABILITY_BINS. */
export const PROBABILITY_BINS = 10_000;

/**
 * The bin a selected probability is counted in: its value in units of 0.0001, rounded to 0.000001
 * first (so 0.29, 0.28999… in binary, is bin 2900), clamped to 0…10000. The trigger that keeps the
 * counts computes the same in SQL (migration 1795751400000-dashboard-counters). A threshold t counts
 * the bins below `probabilityBin(t)` as below it, so answers in t's own bin count as not below. That
 * is the decision rule's `p < t` whenever t and the answer have at most four decimals. It is not for
 * an answer in t's bin but under t: less than 0.0001 under a threshold of more decimals, or a
 * floating-point artifact within 0.0000005 under a four-decimal one (a boolean's 1 − 0.07 is
 * 0.9299999999999999, which the rule sends to review at 0.93); such answers are left out of the
 * share below.
 */
export function probabilityBin(probability: number): number {
  const bin = Math.floor(Math.round(probability * 1_000_000) / 100);
  return Math.min(PROBABILITY_BINS, Math.max(0, bin));
}

/** The share below the threshold; null when nothing was answered. */
export function shareBelowThreshold({ answered, below }: ThresholdCount): number | null {
  return answered ? below / answered : null;
}
