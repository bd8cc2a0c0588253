import { useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client';
import { calibrationKeys } from './calibration';
import { useApiMutation, type Effects } from './mutation';
import { reviewKeys } from './reviews';
import { statsKeys } from './stats';

type TicketStatus = Schemas['EvaluationSummaryDto']['status'];

/** The query of `GET /api/evaluations` without its cursor (every field optional, as the API's). */
export interface EvaluationListQuery {
  packId?: string;
  packVersionId?: string;
  status?: TicketStatus;
  /** Only these sources (sent as a repeated `source` parameter); left out: every source. */
  source?: Array<Schemas['EvaluationSummaryDto']['source']>;
  /** ISO 8601 date-times: from inclusive, to exclusive. */
  from?: string;
  to?: string;
  q?: string;
  order?: 'newest' | 'oldest';
}

/** Query keys of evaluations. */
export const evaluationKeys = {
  all: ['evaluations'] as const,
  one: (id: string) => ['evaluations', 'one', id] as const,
  list: (query: EvaluationListQuery) => ['evaluations', 'list', query] as const,
  ofSimulation: (simulationId: string, status: TicketStatus | 'all') =>
    ['evaluations', 'simulation', simulationId, status] as const,
};

/**
 * After an evaluation is judged or labeled: it, the review queue, the dashboard's figures and the
 * calibration reports (computed from labels) are stale.
 */
async function settleEvaluations(queryClient: QueryClient, evaluationId?: string): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({
      queryKey: evaluationId ? evaluationKeys.one(evaluationId) : evaluationKeys.all,
    }),
    queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
    queryClient.invalidateQueries({ queryKey: statsKeys.all }),
    queryClient.invalidateQueries({ queryKey: calibrationKeys.all }),
  ]);
}

/** One evaluation with its redacted ticket, result and labels. */
export function useEvaluation(id: string) {
  return useQuery({
    queryKey: evaluationKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/evaluations/{id}', { params: { path: { id } } })),
  });
}

/** The evaluation list for some filters, a page at a time (the first page holds the total). */
export function useEvaluationList(query: EvaluationListQuery) {
  return useInfiniteQuery({
    queryKey: evaluationKeys.list(query),
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/evaluations', {
          params: { query: pageParam ? { ...query, cursor: pageParam } : query },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

/** A simulation's evaluations, optionally of one status, a page at a time. */
export function useSimulationEvaluations(simulationId: string, status: TicketStatus | 'all') {
  return useInfiniteQuery({
    queryKey: evaluationKeys.ofSimulation(simulationId, status),
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/evaluations', {
          params: {
            query: {
              simulationId,
              ...(status === 'all' ? {} : { status }),
              ...(pageParam ? { cursor: pageParam } : {}),
            },
          },
        }),
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
}

/** Judges a ticket in the playground; the judgment is stored like any other evaluation. */
export function usePlaygroundJudge(
  effects?: Effects<Schemas['PlaygroundJudgeResponseDto'], Schemas['PlaygroundJudgeRequestDto']>,
) {
  return useApiMutation(
    (body: Schemas['PlaygroundJudgeRequestDto']) => unwrap(api.POST('/app/playground/judge', { body })),
    (queryClient) => settleEvaluations(queryClient),
    effects,
  );
}

export function useCreateLabel(
  evaluationId: string,
  effects?: Effects<Schemas['LabelDto'], Schemas['CreateLabelDto']>,
) {
  return useApiMutation(
    (body: Schemas['CreateLabelDto']) =>
      unwrap(api.POST('/api/evaluations/{id}/labels', { params: { path: { id: evaluationId } }, body })),
    (queryClient) => settleEvaluations(queryClient, evaluationId),
    effects,
  );
}

/**
 * Several labels of one evaluation, one request each in order (the first refusal stops the rest);
 * the evaluation, queue, stats and calibration refresh once, after the last.
 */
export function useCreateLabels(
  evaluationId: string,
  effects?: Effects<Schemas['LabelDto'][], Schemas['CreateLabelDto'][]>,
) {
  return useApiMutation(
    async (bodies: Schemas['CreateLabelDto'][]) => {
      const saved: Schemas['LabelDto'][] = [];
      for (const body of bodies)
        saved.push(
          await unwrap(
            api.POST('/api/evaluations/{id}/labels', { params: { path: { id: evaluationId } }, body }),
          ),
        );
      return saved;
    },
    (queryClient) => settleEvaluations(queryClient, evaluationId),
    effects,
  );
}

export function useDeleteLabel(evaluationId: string, effects?: Effects<unknown, string>) {
  return useApiMutation(
    (labelId: string) =>
      unwrap(
        api.DELETE('/api/evaluations/{id}/labels/{labelId}', {
          params: { path: { id: evaluationId, labelId } },
        }),
      ),
    (queryClient) => settleEvaluations(queryClient, evaluationId),
    effects,
  );
}
