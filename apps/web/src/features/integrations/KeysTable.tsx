import { Button, Code, Group } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { DataTable } from '../../ui/DataTable';
import { When } from '../../ui/When';
import { PermissionBadges } from './PermissionBadges';

type ApiKey = Schemas['ApiKeyDto'];

export function KeysTable({
  keys,
  onRotate,
  onRevoke,
}: {
  keys: ApiKey[];
  onRotate: (key: ApiKey) => void;
  onRevoke: (key: ApiKey) => void;
}) {
  return (
    <DataTable
      rows={keys}
      minWidth={760}
      columns={[
        { header: 'Name', rowHeader: true, cellProps: { fw: 500 }, cell: (key) => key.name },
        { header: 'Prefix', cell: (key) => <Code>{key.prefix}…</Code> },
        {
          header: 'Permissions',
          cellProps: { maw: 260 },
          cell: (key) => <PermissionBadges permissions={key.permissions} />,
        },
        { header: 'Created', cell: (key) => <When iso={key.createdAt} /> },
        { header: 'Last used', cell: (key) => <When iso={key.lastUsedAt} /> },
        {
          header: 'Actions',
          cell: (key) => (
            <Group gap="xs" wrap="nowrap">
              <Button size="xs" variant="default" onClick={() => onRotate(key)}>
                Rotate
              </Button>
              <Button size="xs" variant="light" color="red" onClick={() => onRevoke(key)}>
                Revoke
              </Button>
            </Group>
          ),
        },
      ]}
    />
  );
}
