import { Stack, Title } from '@mantine/core';
import { CompareForm } from './CompareForm';
import { useSimulations } from '../../api/queries/simulations';
import { SimulationsTable } from './SimulationsTable';
import { StartSimulationForm } from './StartSimulationForm';
import { PageHeader } from '../../ui/PageHeader';
import { Panel } from '../../ui/Panel';
import { Empty, QueryState } from '../../ui/states';

/** Start a simulation (a dataset judged with a pack version), follow them, compare two. */
export default function SimulationsPage() {
  const simulations = useSimulations();
  return (
    <Stack gap="lg">
      <PageHeader
        title="Simulations"
        description="Judge every ticket of a dataset with a version of a pack, in the background."
      />
      <Panel title="New simulation" size="h4">
        <StartSimulationForm />
      </Panel>
      <section aria-labelledby="list-heading">
        <Title order={3} size="h4" id="list-heading" mb="sm">
          Your simulations
        </Title>
        <QueryState query={simulations}>
          {(items) =>
            items.length ? (
              <Stack gap="lg">
                <SimulationsTable items={items} />
                <Panel title="Compare two simulations" order={4} size="h5">
                  <CompareForm items={items} />
                </Panel>
              </Stack>
            ) : (
              <Empty title="No simulations yet">Start one above to judge a whole dataset.</Empty>
            )
          }
        </QueryState>
      </section>
    </Stack>
  );
}
