import { Stack, Text } from '@mantine/core';

/** A headline figure: its label, the value large, and an optional note under it. */
export function Figure({ label, value, note }: { label: string; value: string; note?: string | null }) {
  return (
    <Stack gap={0}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={24} fw={700} lh={1.3}>
        {value}
      </Text>
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </Stack>
  );
}
