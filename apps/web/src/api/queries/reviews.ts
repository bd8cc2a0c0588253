import { useInfiniteQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client';

/** The query of `GET /api/reviews` without its cursor. */
export interface ReviewQueueQuery {
  packId?: string;
  questionId?: string;
  labeled?: 'true' | 'false';
  /** Only these sources (sent as a repeated `source` parameter); left out: every source. */
  source?: Array<Schemas['EvaluationSummaryDto']['source']>;
  /** `audit`: the automatic decisions drawn for audit; left out: the review queue. */
  queue?: 'review' | 'audit';
  /** `value`: the most valuable labels first; left out: newest first. */
  order?: 'newest' | 'value';
}

/** Query keys of the review queue; labels and new judgments make it stale. */
export const reviewKeys = {
  all: ['reviews'] as const,
  queue: (query: ReviewQueueQuery) => ['reviews', 'queue', query] as const,
};

export function useReviewQueue(query: ReviewQueueQuery) {
  return useInfiniteQuery({
    queryKey: reviewKeys.queue(query),
    queryFn: ({ pageParam }) => fetchReviewPage(query, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

/** One page of the queue, read directly (the search for the next item to label). */
export function fetchReviewPage(query: ReviewQueueQuery, cursor?: string) {
  return unwrap(api.GET('/api/reviews', { params: { query: cursor ? { ...query, cursor } : query } }));
}
