import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { fetchReviewPage } from '../../api/queries/reviews';
import {
  filtersSearch,
  findNextReview,
  reviewQuery,
  type QueuePosition,
  type ReviewFilters,
} from './reviews';

/**
 * Goes to the next unlabeled evaluation of the queue with the same queue, order, pack and question
 * filters (`GET /api/reviews?labeled=false`), keeping the filters in the URL. `data` is null after a
 * search that found nothing else to label.
 */
export function useNextItem(current: QueuePosition | undefined, filters: ReviewFilters) {
  const navigate = useNavigate();
  const unlabeled: ReviewFilters = { ...filters, labeled: 'false' };
  return useMutation({
    mutationFn: () =>
      findNextReview(
        (cursor) => fetchReviewPage(reviewQuery(unlabeled), cursor),
        current!,
        undefined,
        filters.byValue,
      ),
    onSuccess: (id) => {
      if (id) void navigate(`/evaluations/${id}${filtersSearch(filters)}`);
    },
  });
}
