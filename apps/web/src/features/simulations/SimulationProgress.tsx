import { Progress, Stack, Text } from '@mantine/core';
import { progressOf } from './simulations';

/** A progress bar (role progressbar, percent as its value) with "N of M tickets" beside it. */
export function SimulationProgress({
  completed,
  total,
  detail,
  size = 'lg',
}: {
  completed: number;
  total: number;
  detail?: string | null;
  size?: 'sm' | 'lg';
}) {
  const { percent, label } = progressOf({ completed, total });
  return (
    <Stack gap={4} miw={size === 'sm' ? 120 : undefined}>
      <Progress value={percent} size={size} aria-label={`Progress: ${label}`} />
      <Text size={size === 'sm' ? 'xs' : 'sm'} c={size === 'sm' ? 'dimmed' : undefined}>
        {label}
        {size === 'lg' ? ` (${percent}%)` : ''}
        {detail ? ` · ${detail}` : ''}
      </Text>
    </Stack>
  );
}
