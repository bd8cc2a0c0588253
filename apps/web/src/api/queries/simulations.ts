import { keepPreviousData, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client';
import { isActive } from '../../lib/simulation-status';
import { useApiMutation, type Effects } from './mutation';
import { statsKeys } from './stats';

type Simulation = Schemas['SimulationDto'];

/** Query keys of simulations. */
export const simulationKeys = {
  all: ['simulations'] as const,
  list: ['simulations', 'list'] as const,
  one: (id: string) => ['simulations', 'one', id] as const,
  compare: (id: string, otherId: string) => ['simulations', 'compare', id, otherId] as const,
  /** `completed`: how many tickets were judged when read; a new count is a new read. */
  disagreements: (id: string, questionId: string | null, completed: number) =>
    ['simulations', 'disagreements', id, questionId, completed] as const,
};

/** After a simulation is started or cancelled: stored if given; the list and the dashboard's recent runs are stale. */
async function settleSimulations(queryClient: QueryClient, simulation?: Simulation): Promise<void> {
  if (simulation) queryClient.setQueryData(simulationKeys.one(simulation.id), simulation);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: simulationKeys.list }),
    queryClient.invalidateQueries({ queryKey: statsKeys.all }),
  ]);
}

/** Your simulations, newest first; refreshed every few seconds while one is still moving. */
export function useSimulations() {
  return useQuery({
    queryKey: simulationKeys.list,
    queryFn: async () => (await unwrap(api.GET('/api/simulations'))).items,
    refetchInterval: (query) => (query.state.data?.some((item) => isActive(item.status)) ? 3000 : false),
  });
}

/** One simulation, polled every second while queued or running, then left alone. */
export function useSimulation(id: string, enabled = true) {
  return useQuery({
    queryKey: simulationKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/simulations/{id}', { params: { path: { id } } })),
    enabled,
    staleTime: (query) => (query.state.data && !isActive(query.state.data.status) ? Infinity : 0),
    refetchInterval: (query) => (query.state.data && isActive(query.state.data.status) ? 1000 : false),
  });
}

export function useSimulationComparison(id: string, otherId: string, enabled: boolean) {
  return useQuery({
    queryKey: simulationKeys.compare(id, otherId),
    queryFn: () =>
      unwrap(api.GET('/api/simulations/{id}/compare/{otherId}', { params: { path: { id, otherId } } })),
    enabled,
  });
}

export function useStartSimulation(
  effects?: Effects<Schemas['SimulationIdDto'], Schemas['StartSimulationDto']>,
) {
  return useApiMutation(
    (body: Schemas['StartSimulationDto']) => unwrap(api.POST('/api/simulations', { body })),
    (queryClient) => settleSimulations(queryClient),
    effects,
  );
}

export function useCancelSimulation(id: string, effects?: Effects<Simulation, void>) {
  const queryClient = useQueryClient();
  return useApiMutation(
    () => unwrap(api.POST('/api/simulations/{id}/cancel', { params: { path: { id } } })),
    settleSimulations,
    {
      ...effects,
      // Refused because it had just finished, most likely: show what it is now.
      onError: async (error, vars) => {
        await queryClient.invalidateQueries({ queryKey: simulationKeys.one(id) });
        await effects?.onError?.(error, vars);
      },
    },
  );
}

/**
 * The judged tickets whose answer differs from the expected one (one question's, or all), read again
 * whenever the simulation's judged count moves (its own query polls while it runs), so the last
 * tickets judged before it completes are never missed; the previous page stays shown meanwhile.
 */
export function simulationDisagreementsQuery(
  simulation: Pick<Simulation, 'id' | 'completed'>,
  questionId: string | null,
) {
  return {
    queryKey: simulationKeys.disagreements(simulation.id, questionId, simulation.completed),
    queryFn: () =>
      unwrap(
        api.GET('/api/simulations/{id}/disagreements', {
          params: { path: { id: simulation.id }, query: questionId ? { questionId } : {} },
        }),
      ),
    placeholderData: keepPreviousData,
  };
}

export function useSimulationDisagreements(
  simulation: Pick<Simulation, 'id' | 'completed'>,
  questionId: string | null,
) {
  return useQuery(simulationDisagreementsQuery(simulation, questionId));
}
