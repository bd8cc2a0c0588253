import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { formatDateTime } from '../../lib/format';
import { DataTable, type Column } from '../../ui/DataTable';
import { Empty } from '../../ui/states';

type Dataset = Schemas['DatasetDto'];

const COLUMNS: Column<Dataset>[] = [
  {
    header: 'Name',
    cell: (dataset) => (
      <Anchor component={Link} to={`/datasets/${dataset.id}`}>
        {dataset.name}
      </Anchor>
    ),
  },
  { header: 'Tickets', cell: (dataset) => dataset.ticketCount },
  { header: 'Created', cell: (dataset) => formatDateTime(dataset.createdAt) },
];

export function DatasetsTable({ datasets }: { datasets: Dataset[] }) {
  return (
    <DataTable
      rows={datasets}
      columns={COLUMNS}
      minWidth={480}
      highlightOnHover
      empty={<Empty title="No datasets yet">Create one above, then upload tickets as CSV or JSON.</Empty>}
    />
  );
}
