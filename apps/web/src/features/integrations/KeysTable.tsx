import { Button, Code, Group, Table } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { When } from '../dashboard/When';
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
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Prefix</Table.Th>
            <Table.Th scope="col">Permissions</Table.Th>
            <Table.Th scope="col">Created</Table.Th>
            <Table.Th scope="col">Last used</Table.Th>
            <Table.Th scope="col">Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => (
            <Table.Tr key={key.id}>
              <Table.Th scope="row" fw={500}>
                {key.name}
              </Table.Th>
              <Table.Td>
                <Code>{key.prefix}…</Code>
              </Table.Td>
              <Table.Td maw={260}>
                <PermissionBadges permissions={key.permissions} />
              </Table.Td>
              <Table.Td>
                <When iso={key.createdAt} />
              </Table.Td>
              <Table.Td>
                <When iso={key.lastUsedAt} />
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="default" onClick={() => onRotate(key)}>
                    Rotate
                  </Button>
                  <Button size="xs" variant="light" color="red" onClick={() => onRevoke(key)}>
                    Revoke
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
