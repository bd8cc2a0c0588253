import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * The top of a page: a link back to its list (`back`), the level-2 title, a line under it (text,
 * or any node) and the page's actions beside it. A fragment, so the page's own spacing applies.
 */
export function PageHeader({
  title,
  description,
  actions,
  back,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  back?: { to: string; label: string };
}) {
  return (
    <>
      {back && (
        <Anchor component={Link} to={back.to} size="sm" style={{ alignSelf: 'flex-start' }}>
          <span aria-hidden>← </span>
          {back.label}
        </Anchor>
      )}
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Title order={2} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {typeof description === 'string' ? (
            <Text c="dimmed" size="sm" style={{ overflowWrap: 'anywhere' }}>
              {description}
            </Text>
          ) : (
            description
          )}
        </Stack>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
    </>
  );
}
