import { Stack } from '@mantine/core';
import { CreateDatasetForm } from './CreateDatasetForm';
import { DatasetsTable } from './DatasetsTable';
import { useDatasets } from '../../api/queries/datasets';
import { PageHeader } from '../../ui/PageHeader';
import { Panel } from '../../ui/Panel';
import { QueryState } from '../../ui/states';

/** Datasets: named sets of redacted tickets that simulations judge. */
export default function DatasetsPage() {
  const datasets = useDatasets();
  return (
    <Stack gap="lg">
      <PageHeader
        title="Datasets"
        description="Sets of up to 250 tickets (stored redacted) to run simulations over."
      />
      <Panel title="New dataset" size="h5">
        <CreateDatasetForm />
      </Panel>
      <QueryState query={datasets}>{(items) => <DatasetsTable datasets={items} />}</QueryState>
    </Stack>
  );
}
