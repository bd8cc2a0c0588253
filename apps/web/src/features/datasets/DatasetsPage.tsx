import { Paper, Stack, Text, Title } from '@mantine/core';
import { CreateDatasetForm } from './CreateDatasetForm';
import { DatasetsTable } from './DatasetsTable';
import { useDatasets } from '../../api/queries/datasets';
import { Empty, QueryState } from '../../ui/states';

/** Datasets: named sets of redacted tickets that simulations judge. */
export default function DatasetsPage() {
  const datasets = useDatasets();
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2}>Datasets</Title>
        <Text c="dimmed" size="sm">
          Sets of up to 250 tickets (stored redacted) to run simulations over.
        </Text>
      </Stack>
      <Paper withBorder p="md" component="section" aria-labelledby="new-dataset-heading">
        <Title order={3} size="h5" id="new-dataset-heading" mb="sm">
          New dataset
        </Title>
        <CreateDatasetForm />
      </Paper>
      <QueryState query={datasets}>
        {(items) =>
          items.length ? (
            <DatasetsTable datasets={items} />
          ) : (
            <Empty title="No datasets yet">Create one above, then upload tickets as CSV or JSON.</Empty>
          )
        }
      </QueryState>
    </Stack>
  );
}
