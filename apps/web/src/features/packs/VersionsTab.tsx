import { Anchor, Badge, Code, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { formatDateTime } from '../../lib/format';
import { versionKind, versionNumber } from '../../lib/versions';
import { Empty, QueryState } from '../../ui/states';
import { usePackVersions } from '../../api/queries/packs';

const KIND_BADGE = {
  draft: { color: 'gray', label: 'Draft' },
  live: { color: 'green', label: 'Live' },
  published: { color: 'blue', label: 'Earlier version' },
} as const;

/** The Versions tab: every version of the pack, newest first, with the live one marked. */
export function VersionsTab({ pack }: { pack: Schemas['PackDto'] }) {
  const versions = usePackVersions(pack.id);
  return (
    <QueryState query={versions}>
      {(list) =>
        list.length === 0 ? (
          <Empty title="No versions" />
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Version</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">ID</Table.Th>
                  <Table.Th scope="col">Created</Table.Th>
                  <Table.Th scope="col">Published</Table.Th>
                  <Table.Th scope="col">Try it</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((version) => {
                  const kind = versionKind(version, pack.liveVersionId);
                  return (
                    <Table.Tr key={version.id}>
                      <Table.Td>
                        {kind === 'draft' ? 'Draft' : `Version ${versionNumber(list, version.id)}`}
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <Badge color={KIND_BADGE[kind].color} variant="light">
                          {KIND_BADGE[kind].label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Code>{version.id}</Code>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatDateTime(version.createdAt)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {version.publishedAt ? formatDateTime(version.publishedAt) : 'not published'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          size="sm"
                          to={`/playground?pack=${pack.id}&version=${version.id}`}
                          aria-label={`Open ${kind === 'draft' ? 'the draft' : `version ${versionNumber(list, version.id)}`} in the playground`}
                        >
                          Playground
                        </Anchor>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )
      }
    </QueryState>
  );
}
