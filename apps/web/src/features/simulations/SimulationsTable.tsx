import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { formatDateTime } from '../../lib/format';
import { runVersionLabel } from '../../lib/versions';
import { useSimulation } from '../../api/queries/simulations';
import { SimulationProgress } from './SimulationProgress';
import { DataTable, type Column } from '../../ui/DataTable';
import { StatusBadge } from '../../ui/StatusBadge';

const PAGE = 20;

type Item = Schemas['SimulationListItemDto'];

/** A row's status and progress come from the simulation itself (one query, polled while it moves). */
function LiveStatus({ item }: { item: Item }) {
  const simulation = useSimulation(item.id);
  return <StatusBadge status={simulation.data?.status ?? item.status} />;
}

function LiveProgress({ item }: { item: Item }) {
  const simulation = useSimulation(item.id);
  const data = simulation.data;
  return data ? (
    <SimulationProgress completed={data.completed} total={data.total} size="sm" />
  ) : (
    <Text size="xs" c="dimmed">
      {simulation.isError ? 'Unavailable' : 'Loading…'}
    </Text>
  );
}

const COLUMNS: Column<Item>[] = [
  {
    header: 'Simulation',
    cellProps: { style: { overflowWrap: 'anywhere' } },
    cell: (item) => (
      <Stack gap={0}>
        <Anchor component={Link} to={`/simulations/${item.id}`}>
          {item.name ?? formatDateTime(item.createdAt)}
        </Anchor>
        {item.name && (
          <Text size="xs" c="dimmed">
            {formatDateTime(item.createdAt)}
          </Text>
        )}
      </Stack>
    ),
  },
  { header: 'Status', cell: (item) => <LiveStatus item={item} /> },
  { header: 'Progress', cell: (item) => <LiveProgress item={item} /> },
  { header: 'Dataset', cell: (item) => item.datasetName },
  { header: 'Pack', cell: (item) => item.packName },
  { header: 'Version', cell: (item) => runVersionLabel(item) },
];

export function SimulationsTable({ items }: { items: Item[] }) {
  const [shown, setShown] = useState(PAGE);
  return (
    <Stack gap="sm">
      <DataTable rows={items.slice(0, shown)} columns={COLUMNS} minWidth={860} highlightOnHover />
      {items.length > shown && (
        <Button variant="default" onClick={() => setShown(shown + PAGE)} style={{ alignSelf: 'flex-start' }}>
          Show more simulations
        </Button>
      )}
    </Stack>
  );
}
