import { Group, Progress, Stack, Text } from '@mantine/core';
import type { ProbabilityRow } from '../lib/probabilities';

/**
 * An answer's probabilities (`lib/probabilities.ts`) as horizontal bars, each with its value and
 * percentage written out: the playground's result and the evaluation page draw the same list.
 */
export function ProbabilityBars({ rows, label }: { rows: ProbabilityRow[]; label: string }) {
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No probabilities reported
      </Text>
    );
  }
  return (
    <Stack gap={6} role="list" aria-label={label}>
      {rows.map((row) => (
        <Group key={row.label} gap="sm" wrap="nowrap" role="listitem">
          <Text
            size="sm"
            w={{ base: 84, sm: 140 }}
            truncate="end"
            fw={row.selected ? 700 : 400}
            title={row.label}
          >
            {row.label}
          </Text>
          <Progress.Root size="lg" flex={1}>
            <Progress.Section
              value={row.value * 100}
              color={row.selected ? 'indigo' : 'gray'}
              aria-label={`${row.label}: ${row.percent}${row.selected ? ', chosen' : ''}`}
            />
          </Progress.Root>
          <Text size="sm" w={{ base: 64, sm: 88 }} ta="right" fw={row.selected ? 700 : 400}>
            {row.percent}
            {row.selected ? ' ✓' : ''}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
