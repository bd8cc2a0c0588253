import { Anchor, Table } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { formatDateTime } from '../../lib/format';

export function DatasetsTable({ datasets }: { datasets: Schemas['DatasetDto'][] }) {
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Tickets</Table.Th>
            <Table.Th scope="col">Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {datasets.map((dataset) => (
            <Table.Tr key={dataset.id}>
              <Table.Td>
                <Anchor component={Link} to={`/datasets/${dataset.id}`}>
                  {dataset.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{dataset.ticketCount}</Table.Td>
              <Table.Td>{formatDateTime(dataset.createdAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
