import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One part of the Integrations page: a level-3 heading, an optional action beside it, a line of help.
 * Not a named region: "API keys" as a region name would also match the "API key" input's label.
 * While one of its dialogs is open (`covered`) the section is inert and hidden from assistive
 * technology, so only the dialog's buttons can be found and reached ("Revoke key", not "Revoke").
 */
export function Section({
  title,
  description,
  action,
  covered = false,
  children,
}: {
  title: string;
  description: ReactNode;
  action?: ReactNode;
  covered?: boolean;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-hidden={covered || undefined} inert={covered}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} style={{ flex: '1 1 16rem' }}>
            <Title order={3}>{title}</Title>
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          </Stack>
          {action}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
