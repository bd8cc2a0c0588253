import { defineStatement } from './statement.js';

/** Index-only on the partial index of unlabeled reviews. */
export const countUnlabeledReviews = defineStatement<{ userId: string }, { count: number }>({
  name: 'stats.unlabeledReviews',
  sql: `SELECT count(*)::int AS count FROM evaluations WHERE user_id = :userId AND status = 'review' AND NOT labeled`,
});
