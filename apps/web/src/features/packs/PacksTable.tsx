import { Anchor, Badge, Code, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { formatDateTime, shortId } from '../../lib/format';
import { DataTable, type Column } from '../../ui/DataTable';
import { Empty } from '../../ui/states';

type Pack = Schemas['PackListItemDto'];

const COLUMNS: Column<Pack>[] = [
  {
    header: 'Name',
    cell: (pack) => (
      <Anchor component={Link} to={`/packs/${pack.id}`} fw={500}>
        {pack.name}
      </Anchor>
    ),
  },
  { header: 'Questions', cell: (pack) => pack.questionCount },
  {
    header: 'Live version',
    cell: (pack) =>
      pack.liveVersionId ? (
        pack.liveVersionNumber ? (
          <Text size="sm">Version {pack.liveVersionNumber}</Text>
        ) : (
          <Code title={pack.liveVersionId}>{shortId(pack.liveVersionId)}</Code>
        )
      ) : (
        <Text size="sm" c="dimmed">
          not published
        </Text>
      ),
  },
  {
    header: 'Draft',
    cell: (pack) =>
      pack.unpublishedChanges ? (
        <Badge color="orange" variant="light">
          Unpublished changes
        </Badge>
      ) : (
        <Text size="sm" c="dimmed">
          No unpublished changes
        </Text>
      ),
  },
  { header: 'Updated', cell: (pack) => <Text size="sm">{formatDateTime(pack.updatedAt)}</Text> },
];

/** The pack list: one row per pack, its name linking to the pack page. */
export function PacksTable({ packs }: { packs: Pack[] }) {
  return (
    <DataTable
      rows={packs}
      columns={COLUMNS}
      minWidth={640}
      striped
      highlightOnHover
      empty={
        <Empty title="No packs yet">Create a pack with New pack, or import an export with Import pack.</Empty>
      }
    />
  );
}
