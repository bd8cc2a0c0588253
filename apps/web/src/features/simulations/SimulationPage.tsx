import '@mantine/charts/styles.css';
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { useSimulation } from '../../api/queries/simulations';
import { SimulationComparison } from './SimulationComparison';
import { SimulationOverview } from './SimulationOverview';
import { SimulationResults } from './SimulationResults';
import { QueryState } from '../../ui/states';

/** One simulation: live progress while it runs, results by status, and `?compare=` another run. */
export default function SimulationPage() {
  const { simulationId = '' } = useParams();
  const [params] = useSearchParams();
  const compareWith = params.get('compare');
  const simulation = useSimulation(simulationId);
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/simulations" size="sm">
        <span aria-hidden>← </span>All simulations
      </Anchor>
      <Stack gap={4}>
        <Title order={2}>Simulation</Title>
        {simulation.data && (
          <Text c="dimmed" size="sm" style={{ overflowWrap: 'anywhere' }}>
            {simulation.data.packName} on {simulation.data.datasetName}
          </Text>
        )}
      </Stack>
      <QueryState query={simulation}>
        {(data) => (
          <>
            <SimulationOverview simulation={data} updatedAt={simulation.dataUpdatedAt} />
            <SimulationResults simulation={data} />
            {compareWith && compareWith !== data.id && (
              <SimulationComparison simulation={data} otherId={compareWith} />
            )}
          </>
        )}
      </QueryState>
    </Stack>
  );
}
