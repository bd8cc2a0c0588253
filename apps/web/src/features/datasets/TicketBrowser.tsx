import { Button, Stack, Table, Text } from '@mantine/core';
import { useDatasetTickets } from '../../api/queries/datasets';
import { metadataText } from './datasets';
import { Empty, ErrorNotice, Loading } from '../../ui/states';
import { ScrollRegion } from './ScrollRegion';

/** The dataset's stored (redacted) tickets, 100 a page, as plain text. */
export function TicketBrowser({ datasetId }: { datasetId: string }) {
  const tickets = useDatasetTickets(datasetId);

  if (tickets.isPending) return <Loading label="Loading tickets" />;
  if (tickets.isError && !tickets.data) return <ErrorNotice error={tickets.error} />;
  const items = tickets.data.pages.flatMap((page) => page.items);
  if (!items.length) return <Empty title="No tickets yet">Upload a CSV or JSON file to add tickets.</Empty>;

  return (
    <Stack gap="sm">
      <ScrollRegion label="Tickets" minWidth={720}>
        <Table striped verticalSpacing="xs">
          <Table.Caption>
            Tickets as stored, redacted: {items.length} shown
            {tickets.hasNextPage ? ', more to load' : ''}.
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">#</Table.Th>
              <Table.Th scope="col">External id</Table.Th>
              <Table.Th scope="col">Subject</Table.Th>
              <Table.Th scope="col">Customer message</Table.Th>
              <Table.Th scope="col">Metadata</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map(({ id, position, ticket }) => (
              <Table.Tr key={id}>
                <Table.Td>{position + 1}</Table.Td>
                <Table.Td>{ticket.externalId ?? '—'}</Table.Td>
                <Table.Td>
                  <Text size="sm" lineClamp={2}>
                    {ticket.subject}
                  </Text>
                </Table.Td>
                <Table.Td maw={360}>
                  <Text size="sm" lineClamp={3}>
                    {ticket.customerMessage}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" lineClamp={2}>
                    {metadataText(ticket.metadata) || '—'}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollRegion>
      {tickets.isFetchNextPageError && (
        <ErrorNotice error={tickets.error} title="Could not load more tickets" />
      )}
      {tickets.hasNextPage && (
        <Button
          variant="default"
          onClick={() => void tickets.fetchNextPage()}
          loading={tickets.isFetchingNextPage}
          style={{ alignSelf: 'flex-start' }}
        >
          Load more
        </Button>
      )}
    </Stack>
  );
}
