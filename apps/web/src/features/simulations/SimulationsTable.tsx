import { Anchor, Button, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { formatDateTime } from '../../lib/format';
import { useSimulation } from '../../api/queries/simulations';
import { SimulationProgress } from './SimulationProgress';
import { StatusBadge } from '../../ui/StatusBadge';

const PAGE = 20;

type Item = Schemas['SimulationListItemDto'];

/** Status and progress of one row, from the simulation itself (polled while it moves). */
function LiveCells({ item }: { item: Item }) {
  const simulation = useSimulation(item.id);
  const data = simulation.data;
  return (
    <>
      <Table.Td>
        <StatusBadge status={data?.status ?? item.status} />
      </Table.Td>
      <Table.Td>
        {data ? (
          <SimulationProgress completed={data.completed} total={data.total} size="sm" />
        ) : (
          <Text size="xs" c="dimmed">
            {simulation.isError ? 'Unavailable' : 'Loading…'}
          </Text>
        )}
      </Table.Td>
    </>
  );
}

export function SimulationsTable({ items }: { items: Item[] }) {
  const [shown, setShown] = useState(PAGE);
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={760}>
        <Table highlightOnHover verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Created</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Progress</Table.Th>
              <Table.Th scope="col">Dataset</Table.Th>
              <Table.Th scope="col">Pack</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.slice(0, shown).map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/simulations/${item.id}`}>
                    {formatDateTime(item.createdAt)}
                  </Anchor>
                </Table.Td>
                <LiveCells item={item} />
                <Table.Td>{item.datasetName}</Table.Td>
                <Table.Td>{item.packName}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {items.length > shown && (
        <Button variant="default" onClick={() => setShown(shown + PAGE)} style={{ alignSelf: 'flex-start' }}>
          Show more simulations
        </Button>
      )}
    </Stack>
  );
}
