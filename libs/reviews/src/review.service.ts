import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { JudgmentResult, Ticket } from '@app/domain';
import { toSummaryView, type EvaluationSummaryView } from '@app/judging';
import { CursorCodec, EvaluationRepository, type ReviewFilter } from '@app/persistence';

export const REVIEWS_PAGE_SIZE = 50;

/** The review queue's total is counted up to this many evaluations; beyond, `totalCapped` is true. */
export const REVIEWS_TOTAL_CAP = 1_000;

export interface ReviewItemView extends EvaluationSummaryView {
  result: JudgmentResult;
  redactedTicket: Ticket;
}

export interface ReviewPage {
  items: ReviewItemView[];
  nextCursor: string | null;
  /** Evaluations in the queue for these filters (all pages), up to REVIEWS_TOTAL_CAP. */
  total: number;
  /** True when the queue holds more than `total` (the count stopped at the cap). */
  totalCapped: boolean;
}

@Injectable()
export class ReviewService {
  private readonly cursors: CursorCodec;

  constructor(
    private readonly evaluations: EvaluationRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cursors = new CursorCodec(config.sessionSecret);
  }

  /** Evaluations in `review`, newest first, 50 a page; the cursor is only valid for this user's queue. */
  async list(userId: string, filter: ReviewFilter, cursor?: string): Promise<ReviewPage> {
    const scope = `${userId}:reviews`;
    const after = cursor ? this.cursors.decode(cursor, scope) : null;
    const [page, total] = await Promise.all([
      this.evaluations.listReviews(userId, filter, after, REVIEWS_PAGE_SIZE),
      this.evaluations.countReviews(userId, filter, REVIEWS_TOTAL_CAP),
    ]);
    return {
      items: page.items.map((evaluation) => ({
        ...toSummaryView(evaluation),
        result: evaluation.result,
        redactedTicket: evaluation.redactedTicket,
      })),
      nextCursor: page.next ? this.cursors.encode(page.next, scope) : null,
      total: total.count,
      totalCapped: total.capped,
    };
  }
}
