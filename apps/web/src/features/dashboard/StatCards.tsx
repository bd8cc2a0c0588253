import { Box, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Schemas } from '../../api/client';
import { countLabel, formatCount, formatLatency } from '../../lib/format';
import { formatCompact, STATUS_COLORS, statusSplit } from './dashboard';

function StatCard({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  return (
    <Paper withBorder p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.3}>
        {value}
      </Text>
      {children}
    </Paper>
  );
}

/** Today (UTC): how many evaluations, how they split, how fast and how many tokens. */
export function StatCards({ stats }: { stats: Schemas['StatsDto'] }) {
  const split = statusSplit(stats.byStatus);
  const tokens = stats.tokens.input + stats.tokens.output;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
      <StatCard label="Evaluations today" value={formatCount(stats.evaluationsToday)}>
        <Text size="xs" c="dimmed">
          Since midnight UTC
        </Text>
      </StatCard>
      <StatCard
        label="Today by status"
        value={stats.evaluationsToday ? `${split[0].percent}% accepted` : '—'}
      >
        <Stack gap={2} mt={4}>
          {split.map((share) => (
            <Group key={share.status} gap="xs" wrap="nowrap">
              <Box w={10} h={10} bg={STATUS_COLORS[share.status]} style={{ borderRadius: 2 }} aria-hidden />
              <Text size="sm">
                {share.label}: {formatCount(share.count)} ({share.percent}%)
              </Text>
            </Group>
          ))}
        </Stack>
      </StatCard>
      <StatCard label="Average latency" value={formatLatency(stats.avgLatencyMs)}>
        <Text size="xs" c="dimmed">
          {stats.evaluationsToday
            ? `Mean of ${countLabel(stats.evaluationsToday, 'evaluation')}`
            : 'No evaluations today'}
        </Text>
      </StatCard>
      <StatCard label="Tokens today" value={formatCompact(tokens)}>
        <Text size="xs" c="dimmed">
          {formatCount(stats.tokens.input)} in · {formatCount(stats.tokens.output)} out
        </Text>
      </StatCard>
    </SimpleGrid>
  );
}
