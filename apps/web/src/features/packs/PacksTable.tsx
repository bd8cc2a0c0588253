import { Anchor, Badge, Code, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { formatDateTime, shortId } from '../../lib/format';

/** The pack list: one row per pack, its name linking to the pack page. */
export function PacksTable({ packs }: { packs: Schemas['PackListItemDto'][] }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Questions</Table.Th>
            <Table.Th scope="col">Live version</Table.Th>
            <Table.Th scope="col">Draft</Table.Th>
            <Table.Th scope="col">Updated</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {packs.map((pack) => (
            <Table.Tr key={pack.id}>
              <Table.Td>
                <Anchor component={Link} to={`/packs/${pack.id}`} fw={500}>
                  {pack.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{pack.questionCount}</Table.Td>
              <Table.Td>
                {pack.liveVersionId ? (
                  <Code title={pack.liveVersionId}>{shortId(pack.liveVersionId)}</Code>
                ) : (
                  <Text size="sm" c="dimmed">
                    not published
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {pack.unpublishedChanges ? (
                  <Badge color="orange" variant="light">
                    Unpublished changes
                  </Badge>
                ) : (
                  <Text size="sm" c="dimmed">
                    No unpublished changes
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDateTime(pack.updatedAt)}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
