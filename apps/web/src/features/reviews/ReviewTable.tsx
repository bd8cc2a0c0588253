import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { reasonText } from '../../lib/answers';
import { formatDateTime } from '../../lib/format';
import { excerpt, formatAuditProbability } from './reviews';
import { DataTable } from '../../ui/DataTable';
import { StatusBadge } from '../../ui/StatusBadge';
import { SourceBadge } from '../../ui/SourceBadge';

interface Props {
  items: Schemas['ReviewItemDto'][];
  packNames: ReadonlyMap<string, string>;
  /** The queue's filters as a query string, carried to the evaluation page for "next item". */
  search: string;
  /** The audit queue: automatic decisions have no review reasons; each shows its π instead. */
  audit?: boolean;
}

/** The review or audit queue: one row per evaluation, each linking to its page. */
export function ReviewTable({ items, packNames, search, audit = false }: Props) {
  type Item = Schemas['ReviewItemDto'];
  const last = audit
    ? {
        header: 'Audit p',
        headerProps: { style: { whiteSpace: 'nowrap' } },
        cell: (item: Item) =>
          typeof item.auditProbability === 'number' ? formatAuditProbability(item.auditProbability) : '—',
      }
    : {
        header: 'Reasons',
        cell: ({ result: { reviewReasons } }: Item) => (
          <Text size="xs">
            {reviewReasons.slice(0, 2).map((reason) => (
              <span key={reason} style={{ display: 'block' }}>
                {reasonText(reason)}
              </span>
            ))}
            {reviewReasons.length > 2 && `+${reviewReasons.length - 2} more`}
          </Text>
        ),
      };
  return (
    <DataTable
      rows={items}
      minWidth={900}
      striped
      highlightOnHover
      columns={[
        {
          header: 'Ticket',
          headerProps: { miw: 220 },
          cell: (item) => (
            <Stack gap={2}>
              <Anchor component={Link} to={`/evaluations/${item.id}${search}`} fw={500}>
                {excerpt(item.redactedTicket.subject, 80) || '(no subject)'}
              </Anchor>
              <Text size="xs" c="dimmed">
                {excerpt(item.redactedTicket.customerMessage, 110)}
              </Text>
            </Stack>
          ),
        },
        { header: 'Status', cell: (item) => <StatusBadge status={item.status} /> },
        { header: 'Source', cell: (item) => <SourceBadge source={item.source} /> },
        {
          header: 'Created',
          cellProps: { style: { whiteSpace: 'nowrap' } },
          cell: (item) => <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>,
        },
        { header: 'Pack', cell: (item) => packNames.get(item.packId) ?? 'Deleted pack' },
        last,
      ]}
    />
  );
}
