import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { formatDateTime, shortId } from '../../lib/format';
import { runVersionLabel, versionNumber } from '../../lib/versions';
import { DataTable } from '../../ui/DataTable';
import { SourceBadge } from '../../ui/SourceBadge';
import { StatusBadge } from '../../ui/StatusBadge';

type Item = Schemas['EvaluationListItemDto'];
type Pack = Schemas['PackListItemDto'];
type Version = Schemas['PackVersionDto'];

interface Props {
  items: Item[];
  packs: ReadonlyMap<string, Pack>;
  /** The versions of the packs on the page, once loaded. */
  versions: ReadonlyMap<string, Version[]>;
}

/** "Version 3 (live)", "Version 2"; the id's first characters while the versions load. */
function versionText(item: Item, packs: Props['packs'], versions: Props['versions']): string {
  const known = versions.get(item.packId);
  const number = known ? versionNumber(known, item.packVersionId) : undefined;
  if (number === undefined) return `Version ${shortId(item.packVersionId)}`;
  const live = packs.get(item.packId)?.liveVersionId === item.packVersionId;
  return runVersionLabel({ packVersionNumber: number, packVersionLive: live });
}

/** The evaluations: one row each, named by its subject, which links to the evaluation's page. */
export function EvaluationsTable({ items, packs, versions }: Props) {
  return (
    <DataTable
      rows={items}
      minWidth={960}
      striped
      highlightOnHover
      columns={[
        {
          header: 'Time',
          cellProps: { style: { whiteSpace: 'nowrap' } },
          cell: (item) => <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>,
        },
        {
          header: 'Subject',
          rowHeader: true,
          headerProps: { miw: 220 },
          cellProps: { style: { fontWeight: 'normal' } },
          cell: (item) => (
            <Anchor component={Link} to={`/evaluations/${item.id}`} fw={500}>
              {item.subject || '(no subject)'}
            </Anchor>
          ),
        },
        {
          header: 'External id',
          cell: (item) =>
            item.externalId ?? (
              <Text span c="dimmed" size="sm">
                —
              </Text>
            ),
        },
        { header: 'Pack', cell: (item) => packs.get(item.packId)?.name ?? 'Deleted pack' },
        {
          header: 'Version',
          cellProps: { style: { whiteSpace: 'nowrap' } },
          cell: (item) => versionText(item, packs, versions),
        },
        { header: 'Status', cell: (item) => <StatusBadge status={item.status} /> },
        { header: 'Source', cell: (item) => <SourceBadge source={item.source} /> },
      ]}
    />
  );
}
