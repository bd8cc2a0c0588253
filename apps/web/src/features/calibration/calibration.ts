import type { Schemas } from '../../api/client';
import { formatPercent } from '../../lib/format';

type Bin = Schemas['ReliabilityBinDto'];
type Calibration = Schemas['CalibrationDto'];
type PackDocument = Schemas['PackDocumentDto'];

/** Below this many labels a question's figures are shown with a caution. */
export const FEW_LABELS = 20;

/** The target agreements offered (the API's default is 0.95). */
export const TARGET_AGREEMENTS = ['0.8', '0.85', '0.9', '0.95', '0.99'];
export const DEFAULT_TARGET = '0.95';

export interface ReliabilityPoint {
  /** `0.6–0.7` */
  bin: string;
  /** The bin's middle, the accuracy a calibrated model would show there (percent). */
  expected: number;
  /** Observed agreement in the bin (percent); null for an empty bin. */
  observed: number | null;
  /** The question's map's mean calibrated probability for the bin's labels (percent); null without a map or labels. */
  calibrated: number | null;
  count: number;
}

/** A bin's observed agreement in words: `66.7%`, or `No data` for an empty bin (no labels is not 0%). */
export function observedText(observed: number | null | undefined): string {
  return observed === null || observed === undefined ? 'No data' : `${observed}%`;
}

/** The reliability bins as chart and table rows, in percent; every bin is kept, an empty one too. */
export function reliabilityPoints(bins: Bin[]): ReliabilityPoint[] {
  return bins.map((bin) => ({
    bin: `${bin.from.toFixed(1)}–${bin.to.toFixed(1)}`,
    expected: Math.round(((bin.from + bin.to) / 2) * 100),
    observed: bin.agreement === null ? null : Math.round(bin.agreement * 1000) / 10,
    calibrated: bin.calibrated === null ? null : Math.round(bin.calibrated * 1000) / 10,
    count: bin.count,
  }));
}

/** Landis and Koch's words for a kappa. */
export function kappaStrength(kappa: number | null): string {
  if (kappa === null) return 'not available';
  if (kappa < 0) return 'worse than chance';
  if (kappa === 0) return 'no better than chance';
  if (kappa <= 0.2) return 'slight';
  if (kappa <= 0.4) return 'fair';
  if (kappa <= 0.6) return 'moderate';
  if (kappa <= 0.8) return 'substantial';
  return 'almost perfect';
}

/** A number with at most `digits` decimals; `—` when unknown. */
export function decimal(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined ? '—' : String(Number(value.toFixed(digits)));
}

/** All labels of a report, over its questions. */
export function totalLabels(calibration: Calibration): number {
  return calibration.questions.reduce((sum, question) => sum + question.labeled, 0);
}

/** The question's threshold in a document; undefined when the question is not there. */
export function thresholdOf(
  document: PackDocument | null | undefined,
  questionId: string,
): number | undefined {
  return document?.questions.find((question) => question.id === questionId)?.review?.minSelectedProbability;
}

/**
 * A copy of the document with one question's `review.minSelectedProbability` set; everything else,
 * unknown keys included, is kept. Throws when the question is not in the document.
 */
export function withThreshold(document: PackDocument, questionId: string, value: number): PackDocument {
  if (!document.questions.some((question) => question.id === questionId)) {
    throw new Error(`The draft has no question "${questionId}"`);
  }
  return {
    ...document,
    questions: document.questions.map((question) =>
      question.id === questionId
        ? { ...question, review: { ...question.review, minSelectedProbability: value } }
        : question,
    ),
  };
}

/**
 * Why no threshold is suggested yet: the API asks for a minimum of labels per question
 * (`labelsNeededForSuggestion`, docs/reviews.md) before a suggestion is worth applying.
 */
export function labelsNeededText(needed: number, labeled: number): string {
  const minimum = needed + labeled;
  return `A threshold is suggested from ${minimum} labels on this question: label ${needed} more ${
    needed === 1 ? 'answer' : 'answers'
  } (${labeled} so far).`;
}

/** Where the labels are downloaded as CSV: the chosen pack's, or all of them. */
export function labelsExportUrl(packId?: string): string {
  return packId ? `/api/labels/export?${new URLSearchParams({ packId })}` : '/api/labels/export';
}

/** `Guaranteed threshold (δ = 0.1)`: the risk the guarantee takes is part of its name. */
export function guaranteedTitle(delta: number): string {
  return `Guaranteed threshold (δ = ${decimal(delta, 3)})`;
}

/** What the guaranteed threshold would decide: `decides 62% automatically`. */
export function coverageText(coverage: number | null): string | null {
  return coverage === null ? null : `decides ${formatPercent(coverage)} automatically`;
}

/**
 * Why there is no guaranteed threshold: how many more audit labels one needs, or, when the API says
 * more labels alike cannot help (`auditLabelsNeeded` null), that none is supported at this target.
 */
export function guaranteedMissingText(auditLabelsNeeded: number | null, targetAgreement: number): string {
  if (auditLabelsNeeded === null) {
    return `None: the audit labels do not support one at ${formatPercent(targetAgreement)} agreement.`;
  }
  return `None yet: about ${auditLabelsNeeded} more audit ${auditLabelsNeeded === 1 ? 'label' : 'labels'}.`;
}

/** `Calibration error: raw 11.2%, calibrated 3%` (at most one decimal); null when neither is known. */
export function calibrationErrorText(ece: Schemas['CalibrationErrorsDto']): string | null {
  if (ece.raw === null && ece.calibrated === null) return null;
  return `Calibration error: raw ${formatPercent(ece.raw, 1)}, calibrated ${formatPercent(ece.calibrated, 1)}`;
}
