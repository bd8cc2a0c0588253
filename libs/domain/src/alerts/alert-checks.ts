import {
  GATEWAY_WINDOW_MINUTES,
  PSI_SMOOTHING,
  type AgreementDriftSettings,
  type AlertRule,
  type AlertRuleSettings,
  type AnswerShiftSettings,
  type GatewayFailureRateSettings,
  type ReviewShareJumpSettings,
} from './alert-rules.js';
import { oneSidedZ, populationStabilityIndex, twoProportionZ, wilsonUpperBound } from './alert-statistics.js';

/** One question's labels on live evaluations of the recent window and of the baseline window. */
export interface AgreementCounts {
  questionId: string;
  recentLabels: number;
  recentAgreed: number;
  baselineLabels: number;
  baselineAgreed: number;
}

/** One question's answers by category (`answerCategory`) in each window. */
export interface AnswerCounts {
  questionId: string;
  recent: Record<string, number>;
  baseline: Record<string, number>;
}

/** A pack's live evaluations: in review per window, and with a gateway failure in the last 15 minutes. */
export interface StatusCounts {
  recentTotal: number;
  recentReview: number;
  baselineTotal: number;
  baselineReview: number;
  gatewayTotal: number;
  gatewayFailed: number;
}

export interface PackQualityCounts {
  agreement: AgreementCounts[];
  answers: AnswerCounts[];
  statuses: StatusCounts;
}

/** The evaluations an alert links to as examples. */
export type AlertExamples =
  | { kind: 'disagreements'; questionId: string }
  | { kind: 'answers'; questionId: string; category: string }
  | { kind: 'reviews' }
  | { kind: 'gateway_failures' };

/** A rule whose condition holds: what changed, by how much, and the figures behind the test. */
export interface AlertFinding {
  rule: AlertRule;
  questionId: string | null;
  summary: string;
  figures: Record<string, unknown>;
  examples: AlertExamples;
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const points = (share: number) => `${(share * 100).toFixed(1)} points`;

/**
 * Agreement drift: with n recent labels of which x agree, the one-sided Wilson upper bound U on the
 * recent agreement is below the baseline agreement minus the margin. Both windows need `minLabels`.
 */
export function checkAgreementDrift(
  counts: AgreementCounts,
  settings: AgreementDriftSettings,
): AlertFinding | null {
  const { recentLabels, recentAgreed, baselineLabels, baselineAgreed } = counts;
  if (!settings.enabled || recentLabels < settings.minLabels || baselineLabels < settings.minLabels)
    return null;
  const recentAgreement = recentAgreed / recentLabels;
  const baselineAgreement = baselineAgreed / baselineLabels;
  const upperBound = wilsonUpperBound(recentAgreed, recentLabels, settings.confidence);
  const limit = baselineAgreement - settings.margin;
  if (!(upperBound < limit)) return null;
  return {
    rule: 'agreement_drift',
    questionId: counts.questionId,
    summary:
      `Reviewers agree with the judge on "${counts.questionId}" ${percent(recentAgreement)} of the time ` +
      `(${recentLabels} labels, last 7 days), down from ${percent(baselineAgreement)} (${baselineLabels} labels, ` +
      `the 28 days before): the ${percent(settings.confidence)} upper bound ${percent(upperBound)} is below ` +
      `${percent(limit)} (baseline − ${points(settings.margin)}).`,
    figures: {
      recentAgreement,
      recentAgreed,
      recentLabels,
      baselineAgreement,
      baselineAgreed,
      baselineLabels,
      drop: baselineAgreement - recentAgreement,
      upperBound,
      limit,
      margin: settings.margin,
      confidence: settings.confidence,
    },
    examples: { kind: 'disagreements', questionId: counts.questionId },
  };
}

/** Answer shift: the PSI of the question's answer categories, recent against baseline, above the threshold. */
export function checkAnswerShift(counts: AnswerCounts, settings: AnswerShiftSettings): AlertFinding | null {
  if (!settings.enabled) return null;
  const result = populationStabilityIndex(counts.recent, counts.baseline, PSI_SMOOTHING);
  if (result.recentTotal < settings.minCount || result.baselineTotal < settings.minCount) return null;
  if (!(result.psi > settings.psiThreshold)) return null;
  const [top] = result.bins;
  return {
    rule: 'answer_shift',
    questionId: counts.questionId,
    summary:
      `Answers to "${counts.questionId}" shifted: PSI ${result.psi.toFixed(3)} > ${settings.psiThreshold} ` +
      `(${result.recentTotal} answers in the last 7 days against ${result.baselineTotal} in the 28 days before); ` +
      `"${top.category}" went from ${percent(top.baselineShare)} to ${percent(top.recentShare)}.`,
    figures: {
      psi: result.psi,
      threshold: settings.psiThreshold,
      recentCount: result.recentTotal,
      baselineCount: result.baselineTotal,
      smoothing: PSI_SMOOTHING,
      categories: result.bins,
    },
    examples: { kind: 'answers', questionId: counts.questionId, category: top.category },
  };
}

/**
 * Review share jump: the recent share in review exceeds the baseline's by at least `minJump`, and
 * the one-sided pooled two-proportion z test rejects "no rise" at `confidence`.
 */
export function checkReviewShareJump(
  counts: StatusCounts,
  settings: ReviewShareJumpSettings,
): AlertFinding | null {
  const { recentTotal, recentReview, baselineTotal, baselineReview } = counts;
  if (!settings.enabled || recentTotal < settings.minCount || baselineTotal < settings.minCount) return null;
  const recentShare = recentReview / recentTotal;
  const baselineShare = baselineReview / baselineTotal;
  const jump = recentShare - baselineShare;
  const z = twoProportionZ(recentReview, recentTotal, baselineReview, baselineTotal);
  const critical = oneSidedZ(settings.confidence);
  if (!(jump >= settings.minJump && z > critical)) return null;
  return {
    rule: 'review_share_jump',
    questionId: null,
    summary:
      `The share of evaluations routed to review rose from ${percent(baselineShare)} (${baselineReview} of ` +
      `${baselineTotal}, the 28 days before) to ${percent(recentShare)} (${recentReview} of ${recentTotal}, ` +
      `last 7 days): +${points(jump)}, z = ${z.toFixed(2)} > ${critical.toFixed(3)}.`,
    figures: {
      recentShare,
      recentReview,
      recentCount: recentTotal,
      baselineShare,
      baselineReview,
      baselineCount: baselineTotal,
      jump,
      z,
      critical,
      minJump: settings.minJump,
      confidence: settings.confidence,
    },
    examples: { kind: 'reviews' },
  };
}

/** Gateway failure rate: of the last 15 minutes' evaluations (at least `minCount`), more than `threshold` failed at the gateway. */
export function checkGatewayFailureRate(
  counts: StatusCounts,
  settings: GatewayFailureRateSettings,
): AlertFinding | null {
  const { gatewayTotal, gatewayFailed } = counts;
  if (!settings.enabled || gatewayTotal < settings.minCount) return null;
  const rate = gatewayFailed / gatewayTotal;
  if (!(rate > settings.threshold)) return null;
  return {
    rule: 'gateway_failure_rate',
    questionId: null,
    summary:
      `The model gateway failed on ${gatewayFailed} of ${gatewayTotal} evaluations (${percent(rate)}) in the ` +
      `last ${GATEWAY_WINDOW_MINUTES} minutes, above ${percent(settings.threshold)}.`,
    figures: {
      rate,
      failures: gatewayFailed,
      count: gatewayTotal,
      threshold: settings.threshold,
      windowMinutes: GATEWAY_WINDOW_MINUTES,
    },
    examples: { kind: 'gateway_failures' },
  };
}

/** Every rule of a pack on its counts: the findings whose condition holds now. */
export function checkPackQuality(counts: PackQualityCounts, rules: AlertRuleSettings): AlertFinding[] {
  const findings = [
    ...counts.agreement.map((question) => checkAgreementDrift(question, rules.agreementDrift)),
    ...counts.answers.map((question) => checkAnswerShift(question, rules.answerShift)),
    checkReviewShareJump(counts.statuses, rules.reviewShareJump),
    checkGatewayFailureRate(counts.statuses, rules.gatewayFailureRate),
  ];
  return findings.filter((finding): finding is AlertFinding => finding !== null);
}

/** The key an open alert is unique by, besides its pack. */
export function alertKey(finding: { rule: AlertRule; questionId: string | null }): string {
  return `${finding.rule}/${finding.questionId ?? ''}`;
}
