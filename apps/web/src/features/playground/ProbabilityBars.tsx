import { Group, Progress, Stack, Text } from '@mantine/core';
import { formatPercent } from '../../lib/format';
import type { Bar } from './playground';

/** Probabilities as horizontal bars, each with its value and percentage written out. */
export function ProbabilityBars({ bars }: { bars: Bar[] }) {
  if (bars.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No probabilities reported
      </Text>
    );
  }
  return (
    <Stack gap={6}>
      {bars.map((bar) => (
        <Group key={bar.label} gap="sm" wrap="nowrap">
          <Text
            size="sm"
            w={{ base: 84, sm: 140 }}
            truncate="end"
            fw={bar.selected ? 700 : 400}
            title={bar.label}
          >
            {bar.label}
          </Text>
          <Progress.Root size="lg" flex={1}>
            <Progress.Section
              value={bar.value * 100}
              color={bar.selected ? 'indigo' : 'gray'}
              aria-label={`${bar.label}: ${formatPercent(bar.value, 1)}${bar.selected ? ', chosen' : ''}`}
            />
          </Progress.Root>
          <Text size="sm" w={{ base: 64, sm: 88 }} ta="right" fw={bar.selected ? 700 : 400}>
            {formatPercent(bar.value, 1)}
            {bar.selected ? ' ✓' : ''}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
