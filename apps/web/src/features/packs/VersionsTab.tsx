import { Anchor, Badge, Code, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { formatDateTime } from '../../lib/format';
import { versionKind, versionNumber } from '../../lib/versions';
import { DataTable } from '../../ui/DataTable';
import { Empty, QueryState } from '../../ui/states';
import { usePackVersions } from '../../api/queries/packs';
import { RestoreVersionButton } from './RestoreVersionButton';

type Version = Schemas['PackVersionDto'];

const KIND_BADGE = {
  draft: { color: 'gray', label: 'Draft' },
  live: { color: 'green', label: 'Live' },
  published: { color: 'blue', label: 'Earlier version' },
} as const;

/**
 * The Versions tab: every version of the pack, newest first, with the live one marked, and each
 * published version's "Restore into draft" (rollback).
 */
export function VersionsTab({
  pack,
  draftDirty = false,
  onRestored,
}: {
  pack: Schemas['PackDto'];
  draftDirty?: boolean;
  onRestored?: () => void;
}) {
  const versions = usePackVersions(pack.id);
  return (
    <QueryState query={versions}>
      {(list) => {
        /** The version's number; none for the draft. */
        const number = (version: Version) =>
          versionKind(version, pack.liveVersionId) === 'draft' ? undefined : versionNumber(list, version.id);
        return (
          <DataTable
            rows={list}
            minWidth={860}
            striped
            empty={<Empty title="No versions" />}
            columns={[
              {
                header: 'Version',
                cell: (version) => (number(version) === undefined ? 'Draft' : `Version ${number(version)}`),
              },
              {
                header: 'Status',
                cellProps: { style: { whiteSpace: 'nowrap' } },
                cell: (version) => {
                  const badge = KIND_BADGE[versionKind(version, pack.liveVersionId)];
                  return (
                    <Badge color={badge.color} variant="light">
                      {badge.label}
                    </Badge>
                  );
                },
              },
              { header: 'ID', cell: (version) => <Code>{version.id}</Code> },
              {
                header: 'Created',
                cell: (version) => <Text size="sm">{formatDateTime(version.createdAt)}</Text>,
              },
              {
                header: 'Published',
                cell: (version) => (
                  <Text size="sm">
                    {version.publishedAt ? formatDateTime(version.publishedAt) : 'not published'}
                  </Text>
                ),
              },
              {
                header: 'Try it',
                cell: (version) => (
                  <Anchor
                    component={Link}
                    size="sm"
                    to={`/playground?pack=${pack.id}&version=${version.id}`}
                    aria-label={`Open ${number(version) === undefined ? 'the draft' : `version ${number(version)}`} in the playground`}
                  >
                    Playground
                  </Anchor>
                ),
              },
              {
                header: 'Rollback',
                cell: (version) =>
                  number(version) === undefined ? (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  ) : (
                    <RestoreVersionButton
                      packId={pack.id}
                      versionId={version.id}
                      name={`version ${number(version)}`}
                      draftDirty={draftDirty}
                      onRestored={onRestored}
                    />
                  ),
              },
            ]}
          />
        );
      }}
    </QueryState>
  );
}
