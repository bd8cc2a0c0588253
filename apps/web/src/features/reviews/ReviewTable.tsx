import { Anchor, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { reasonText } from '../../lib/answers';
import { formatDateTime } from '../../lib/format';
import { excerpt } from './reviews';
import { StatusBadge } from '../../ui/StatusBadge';

interface Props {
  items: Schemas['ReviewItemDto'][];
  packNames: ReadonlyMap<string, string>;
  /** The queue's filters as a query string, carried to the evaluation page for "next item". */
  search: string;
}

/** The review queue: one row per evaluation, each linking to its page. */
export function ReviewTable({ items, packNames, search }: Props) {
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped highlightOnHover verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th miw={220}>Ticket</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Pack</Table.Th>
            <Table.Th>Reasons</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>
                <Stack gap={2}>
                  <Anchor component={Link} to={`/evaluations/${item.id}${search}`} fw={500}>
                    {excerpt(item.redactedTicket.subject, 80) || '(no subject)'}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {excerpt(item.redactedTicket.customerMessage, 110)}
                  </Text>
                </Stack>
              </Table.Td>
              <Table.Td>
                <StatusBadge status={item.status} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>
              </Table.Td>
              <Table.Td>{packNames.get(item.packId) ?? 'Deleted pack'}</Table.Td>
              <Table.Td>
                <Text size="xs">
                  {item.result.reviewReasons.slice(0, 2).map((reason) => (
                    <span key={reason} style={{ display: 'block' }}>
                      {reasonText(reason)}
                    </span>
                  ))}
                  {item.result.reviewReasons.length > 2 && `+${item.result.reviewReasons.length - 2} more`}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
