import { Paper, Stack, Text, Title } from '@mantine/core';
import { CompareForm } from './CompareForm';
import { useSimulations } from '../../api/queries/simulations';
import { SimulationsTable } from './SimulationsTable';
import { StartSimulationForm } from './StartSimulationForm';
import { Empty, QueryState } from '../../ui/states';

/** Start a simulation (a dataset judged with a pack version), follow them, compare two. */
export default function SimulationsPage() {
  const simulations = useSimulations();
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2}>Simulations</Title>
        <Text c="dimmed" size="sm">
          Judge every ticket of a dataset with a version of a pack, in the background.
        </Text>
      </Stack>
      <Paper withBorder p="md" component="section" aria-labelledby="start-heading">
        <Title order={3} size="h4" id="start-heading" mb="sm">
          New simulation
        </Title>
        <StartSimulationForm />
      </Paper>
      <section aria-labelledby="list-heading">
        <Title order={3} size="h4" id="list-heading" mb="sm">
          Your simulations
        </Title>
        <QueryState query={simulations}>
          {(items) =>
            items.length ? (
              <Stack gap="lg">
                <SimulationsTable items={items} />
                <Paper withBorder p="md" component="section" aria-labelledby="compare-heading">
                  <Title order={4} size="h5" id="compare-heading" mb="sm">
                    Compare two simulations
                  </Title>
                  <CompareForm items={items} />
                </Paper>
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
