import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { JudgmentResult, Ticket } from '@app/domain';
import {
  CalibrationReader,
  toSummaryView,
  UNCALIBRATED,
  type CalibratedFields,
  type EvaluationSummaryView,
} from '@app/judging';
import {
  CursorCodec,
  EvaluationRepository,
  ValueCursorCodec,
  type EvaluationEntity,
  type KeysetPosition,
  type ReviewFilter,
  type ReviewQueue,
} from '@app/persistence';

export const REVIEWS_PAGE_SIZE = 50;

/** The review queue's total is counted up to this many evaluations; beyond, `totalCapped` is true. */
export const REVIEWS_TOTAL_CAP = 1_000;

/** `newest`: newest first (the default). `value`: the expected value of a label first (docs/reviews.md). */
export type ReviewOrder = 'newest' | 'value';

export interface ReviewItemView extends EvaluationSummaryView, CalibratedFields {
  result: JudgmentResult;
  redactedTicket: Ticket;
  /** The audit draw: π and whether it selected the evaluation; null when nothing was drawn. */
  auditProbability: number | null;
  auditSelected: boolean | null;
}

export interface ReviewPage {
  items: ReviewItemView[];
  nextCursor: string | null;
  /** Evaluations in the queue for these filters (all pages), up to REVIEWS_TOTAL_CAP. */
  total: number;
  /** True when the queue holds more than `total` (the count stopped at the cap). */
  totalCapped: boolean;
}

export interface ReviewListOptions {
  queue?: ReviewQueue;
  order?: ReviewOrder;
  cursor?: string;
}

@Injectable()
export class ReviewService {
  private readonly cursors: CursorCodec;
  private readonly valueCursors: ValueCursorCodec;

  constructor(
    private readonly evaluations: EvaluationRepository,
    private readonly calibration: CalibrationReader,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cursors = new CursorCodec(config.sessionSecret);
    this.valueCursors = new ValueCursorCodec(config.sessionSecret);
  }

  /**
   * A queue, 50 a page: the review queue (evaluations in `review`) or the audit queue (selected
   * automatic decisions), newest first or by the value of a label. A cursor is only valid for this
   * user's queue in that order.
   */
  async list(
    userId: string,
    filter: ReviewFilter,
    { queue = 'review', order = 'newest', cursor }: ReviewListOptions = {},
  ): Promise<ReviewPage> {
    // The review queue's newest-first scope is the one its cursors had before queues and orders.
    const scope = [
      `${userId}:reviews`,
      ...(queue === 'audit' ? ['audit'] : []),
      ...(order === 'value' ? ['value'] : []),
    ].join(':');
    const [page, total] = await Promise.all([
      order === 'value'
        ? this.valuePage(userId, filter, queue, scope, cursor)
        : this.newestPage(userId, filter, queue, scope, cursor),
      this.evaluations.countReviews(userId, filter, REVIEWS_TOTAL_CAP, queue),
    ]);
    // From the cached maps of the page's versions: no query per row.
    const calibration = await this.calibration.fieldsFor(userId, page.items);
    return {
      items: page.items.map((evaluation) =>
        toReviewItemView(evaluation, calibration.get(evaluation.id) ?? UNCALIBRATED),
      ),
      nextCursor: page.nextCursor,
      total: total.count,
      totalCapped: total.capped,
    };
  }

  private async newestPage(
    userId: string,
    filter: ReviewFilter,
    queue: ReviewQueue,
    scope: string,
    cursor?: string,
  ): Promise<{ items: EvaluationEntity[]; nextCursor: string | null }> {
    const after: KeysetPosition | null = cursor ? this.cursors.decode(cursor, scope) : null;
    const page = await this.evaluations.listReviews(userId, filter, after, REVIEWS_PAGE_SIZE, queue);
    return { items: page.items, nextCursor: page.next ? this.cursors.encode(page.next, scope) : null };
  }

  private async valuePage(
    userId: string,
    filter: ReviewFilter,
    queue: ReviewQueue,
    scope: string,
    cursor?: string,
  ): Promise<{ items: EvaluationEntity[]; nextCursor: string | null }> {
    const after = cursor ? this.valueCursors.decode(cursor, scope) : null;
    const page = await this.evaluations.listReviewsByValue(userId, filter, after, REVIEWS_PAGE_SIZE, queue);
    return { items: page.items, nextCursor: page.next ? this.valueCursors.encode(page.next, scope) : null };
  }
}

function toReviewItemView(evaluation: EvaluationEntity, calibration: CalibratedFields): ReviewItemView {
  return {
    ...toSummaryView(evaluation),
    result: evaluation.result,
    redactedTicket: evaluation.redactedTicket,
    auditProbability: evaluation.auditProbability ?? null,
    auditSelected: evaluation.auditSelected ?? null,
    ...calibration,
  };
}
