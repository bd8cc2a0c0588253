import { Paper, Stack, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

/** A bordered section with its own heading (level 3, under the page title). */
export function Panel({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm" align="flex-start">
        <Title order={3} id={headingId}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
