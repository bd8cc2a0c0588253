import { Injectable } from '@nestjs/common';
import {
  agrees,
  answerCategory,
  autoDecisionAccuracy,
  BadRequestError,
  ConflictError,
  NotFoundError,
  predictionPoweredShares,
  weightedProportion,
  zForConfidence,
  type AuditedCategory,
  type AuditedEvaluation,
  type CorrectedShare,
  type ShareEstimate,
  type WeightedAgreement,
} from '@app/domain';
import { PackRepository, PackVersionLookup, QualityRepository, type LabeledDrawRow } from '@app/persistence';

/** Days the quality window covers by default: today (UTC) and the 29 before. */
export const QUALITY_DAYS = 30;
/** The longest window asked for, in days: the counters are read a row a day. */
export const QUALITY_MAX_DAYS = 366;

const DAY_MS = 86_400_000;

export interface QualityQuery {
  versionId?: string;
  /** First and last UTC day of the window (YYYY-MM-DD), both included. */
  from?: string;
  to?: string;
  confidence: number;
}

export interface QuestionQualityView {
  questionId: string;
  agreement: ShareEstimate;
  answers: CorrectedShare[];
}

export interface QualityView {
  packId: string;
  versionId: string;
  from: string;
  to: string;
  confidence: number;
  evaluations: number;
  autoDecided: number;
  audited: number;
  labeled: number;
  autoDecisionAccuracy: ShareEstimate;
  questions: QuestionQualityView[];
}

const AUTOMATIC = new Set(['accept', 'reject']);

/** The most packs the dashboard's Quality card shows. */
export const QUALITY_CARD_PACKS = 5;

/** One pack on the dashboard's Quality card (GET /api/stats `quality`). */
export interface PackQualityView {
  packId: string;
  packName: string;
  versionId: string;
  /** Over the live version's last 30 days, at 95%. */
  autoDecisionAccuracy: ShareEstimate;
  /** About how many more audit labels the interval needs to be at most ±5 points; 0 when it is. */
  auditLabelsForFivePoints: number;
}

/**
 * How good the judge is on a pack version's live traffic (docs/quality.md): every estimate comes
 * from the audit sample's labels, each weighted by 1/π, never from labels given outside the draw.
 */
@Injectable()
export class QualityService {
  constructor(
    private readonly packs: PackRepository,
    private readonly versions: PackVersionLookup,
    private readonly quality: QualityRepository,
  ) {}

  /**
   * The automatic-decision accuracy of the user's live packs with the audit on (at most
   * QUALITY_CARD_PACKS, most recently changed first), over the last 30 days at 95%.
   */
  async card(userId: string, now = new Date()): Promise<PackQualityView[]> {
    const packs = await this.quality.auditedPacks(userId, QUALITY_CARD_PACKS);
    const { from, to } = qualityWindow({}, now);
    return Promise.all(
      packs.map(async (pack) => {
        const draws = await this.quality.labeledDraws(userId, pack.versionId, { fromDay: from, toDay: to });
        const accuracy = autoDecisionAccuracy(
          draws.filter((draw) => AUTOMATIC.has(draw.status)).map(audited),
          0.95,
        );
        return {
          ...pack,
          autoDecisionAccuracy: accuracy,
          auditLabelsForFivePoints: auditLabelsForMargin(accuracy, 0.95),
        };
      }),
    );
  }

  async estimate(
    userId: string,
    packId: string,
    query: QualityQuery,
    now = new Date(),
  ): Promise<QualityView> {
    const pack = await this.packs.find(userId, packId);
    if (!pack) throw new NotFoundError('pack not found');
    const id = query.versionId ?? pack.liveVersionId;
    if (!id) throw new ConflictError('pack has no published version');
    const version = await this.versions.find(userId, id);
    if (!version || version.packId !== pack.id) throw new NotFoundError('version not found');
    const { from, to } = qualityWindow(query, now);

    const window = { userId, versionId: version.id, fromDay: from, toDay: to };
    const [counts, answerRows, draws] = await Promise.all([
      this.quality.counts(window),
      this.quality.answers(window),
      this.quality.labeledDraws(userId, version.id, window),
    ]);
    const judgeCounts = new Map<string, Map<string, number>>();
    for (const row of answerRows) {
      const counts = judgeCounts.get(row.questionId) ?? new Map<string, number>();
      counts.set(row.answer, row.count);
      judgeCounts.set(row.questionId, counts);
    }
    return {
      packId: pack.id,
      versionId: version.id,
      from,
      to,
      confidence: query.confidence,
      ...counts,
      labeled: draws.length,
      autoDecisionAccuracy: autoDecisionAccuracy(
        draws.filter((draw) => AUTOMATIC.has(draw.status)).map(audited),
        query.confidence,
      ),
      questions: version.document.questions.map((question) => {
        const labeled = draws.filter((draw) => draw.labels[question.id] !== undefined);
        const agreement: WeightedAgreement[] = labeled.map((draw) => ({
          agreed: agrees(draw.answers[question.id], draw.labels[question.id]),
          inclusionProbability: draw.auditProbability,
        }));
        const categories: AuditedCategory[] = labeled.map((draw) => ({
          judge: answerCategory(draw.answers[question.id]),
          label: answerCategory(draw.labels[question.id]),
          inclusionProbability: draw.auditProbability,
        }));
        return {
          questionId: question.id,
          agreement: weightedProportion(agreement, query.confidence),
          answers: predictionPoweredShares(
            judgeCounts.get(question.id) ?? new Map(),
            categories,
            query.confidence,
          ),
        };
      }),
    };
  }
}

function audited(draw: LabeledDrawRow): AuditedEvaluation {
  return {
    labeled: Object.entries(draw.labels).map(([questionId, label]) => ({
      model: draw.answers[questionId],
      label,
    })),
    inclusionProbability: draw.auditProbability,
  };
}

const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The window's first and last UTC day: the last 30 days by default; `from` after `to` or over a year is refused. */
export function qualityWindow(
  query: Pick<QualityQuery, 'from' | 'to'>,
  now: Date,
): { from: string; to: string } {
  const to = query.to ?? utcDay(now.getTime());
  const from = query.from ?? utcDay(Date.parse(`${to}T00:00:00Z`) - (QUALITY_DAYS - 1) * DAY_MS);
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days < 1) throw new BadRequestError('from must not be later than to');
  if (days > QUALITY_MAX_DAYS)
    throw new BadRequestError(`the window must not be longer than ${QUALITY_MAX_DAYS} days`);
  return { from, to };
}

/**
 * About how many more audit labels an estimate needs for its interval to be at most ±`margin`: an
 * interval's half-width shrinks as 1/√n, so n·(h/margin)² labels in all, less those there are
 * (weights included, since the current interval already reflects them). With no labels, the
 * worst case p = 1/2: z²/(4·margin²), 385 at 95% and ±5 points. 0 when the interval is narrow enough.
 */
export function auditLabelsForMargin(estimate: ShareEstimate, confidence: number, margin = 0.05): number {
  if (estimate.low === null || estimate.high === null || !estimate.labels) {
    const z = zForConfidence(confidence);
    return Math.ceil((z * z) / (4 * margin * margin));
  }
  const halfWidth = (estimate.high - estimate.low) / 2;
  if (halfWidth <= margin) return 0;
  // Less a hair, so that a width of exactly twice the margin (0.7..0.9) asks for 4·n, not one more.
  return Math.ceil(estimate.labels * (halfWidth / margin) ** 2 - 1e-9) - estimate.labels;
}
