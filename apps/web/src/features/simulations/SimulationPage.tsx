import '@mantine/charts/styles.css';
import { Stack } from '@mantine/core';
import { useParams, useSearchParams } from 'react-router';
import { useSimulation } from '../../api/queries/simulations';
import { ExpectedAgreement } from './ExpectedAgreement';
import { SimulationComparison } from './SimulationComparison';
import { SimulationOverview } from './SimulationOverview';
import { SimulationResults } from './SimulationResults';
import { PageHeader } from '../../ui/PageHeader';
import { runVersionLabel } from '../../lib/versions';
import { QueryState } from '../../ui/states';

/** One simulation: live progress while it runs, results by status, and `?compare=` another run. */
export default function SimulationPage() {
  const { simulationId = '' } = useParams();
  const [params] = useSearchParams();
  const compareWith = params.get('compare');
  const simulation = useSimulation(simulationId);
  return (
    <Stack gap="lg">
      <PageHeader
        back={{ to: '/simulations', label: 'All simulations' }}
        title={simulation.data?.name ?? 'Simulation'}
        description={
          simulation.data &&
          `${simulation.data.packName} (${runVersionLabel(simulation.data)}) on ${simulation.data.datasetName}`
        }
      />
      <QueryState query={simulation}>
        {(data) => (
          <>
            <SimulationOverview simulation={data} updatedAt={simulation.dataUpdatedAt} />
            <SimulationResults simulation={data} />
            <ExpectedAgreement simulation={data} />
            {compareWith && compareWith !== data.id && (
              <SimulationComparison simulation={data} otherId={compareWith} />
            )}
          </>
        )}
      </QueryState>
    </Stack>
  );
}
