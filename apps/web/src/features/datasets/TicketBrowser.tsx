import { Text } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { useDatasetTickets } from '../../api/queries/datasets';
import { metadataText } from './datasets';
import { DeleteTicket } from './DeleteTicket';
import { DataTable, type Column } from '../../ui/DataTable';
import { PagedQueryState } from '../../ui/PagedQueryState';
import { Empty } from '../../ui/states';

type Item = Schemas['DatasetTicketDto'];

const columns = (datasetId: string): Column<Item>[] => [
  { header: '#', cell: ({ position }) => position + 1 },
  { header: 'External id', cell: ({ ticket }) => ticket.externalId ?? '—' },
  {
    header: 'Subject',
    cell: ({ ticket }) => (
      <Text size="sm" lineClamp={2}>
        {ticket.subject}
      </Text>
    ),
  },
  {
    header: 'Customer message',
    cellProps: { maw: 360 },
    cell: ({ ticket }) => (
      <Text size="sm" lineClamp={3}>
        {ticket.customerMessage}
      </Text>
    ),
  },
  {
    header: 'Metadata',
    cell: ({ ticket }) => (
      <Text size="sm" lineClamp={2}>
        {metadataText(ticket.metadata) || '—'}
      </Text>
    ),
  },
  {
    header: 'Expected answers',
    cell: ({ expected }) => (
      <Text size="sm" lineClamp={2}>
        {metadataText(expected) || '—'}
      </Text>
    ),
  },
  { header: 'Actions', cell: (item) => <DeleteTicket datasetId={datasetId} item={item} /> },
];

/** The dataset's stored (redacted) tickets, 100 a page, as plain text; each can be deleted. */
export function TicketBrowser({ datasetId }: { datasetId: string }) {
  const tickets = useDatasetTickets(datasetId);
  return (
    <PagedQueryState
      query={tickets}
      noun="tickets"
      empty={<Empty title="No tickets yet">Upload a CSV or JSON file to add tickets.</Empty>}
    >
      {(items) => (
        <DataTable
          rows={items}
          columns={columns(datasetId)}
          minWidth={880}
          label="Tickets"
          striped
          verticalSpacing="xs"
          caption={`Tickets as stored, redacted: ${items.length} shown${tickets.hasNextPage ? ', more to load' : ''}.`}
        />
      )}
    </PagedQueryState>
  );
}
