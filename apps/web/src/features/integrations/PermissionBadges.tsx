import { Badge, Group, Text } from '@mantine/core';
import { describePermissions } from './integrations';

export function PermissionBadges({ permissions }: { permissions: readonly string[] }) {
  const { all, list } = describePermissions(permissions);
  if (all) return <Badge variant="light">All permissions</Badge>;
  if (list.length === 0)
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  return (
    <Group gap={4}>
      {list.map((permission) => (
        <Badge key={permission} variant="outline" tt="none">
          {permission}
        </Badge>
      ))}
    </Group>
  );
}
