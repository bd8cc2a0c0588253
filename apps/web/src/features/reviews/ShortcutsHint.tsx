import { Group, Kbd, Text } from '@mantine/core';

const SHORTCUTS = [
  ['a', 'agree on the first unlabeled question'],
  ['o', 'other answer'],
  ['n', 'next item in the queue'],
] as const;

/** The page's keyboard shortcuts, always visible. */
export function ShortcutsHint() {
  return (
    <Group gap="md" component="section" aria-label="Keyboard shortcuts" wrap="wrap">
      <Text size="sm" fw={600}>
        Keyboard shortcuts
      </Text>
      {SHORTCUTS.map(([key, action]) => (
        <Text key={key} size="sm" c="dimmed">
          <Kbd>{key}</Kbd> {action}
        </Text>
      ))}
    </Group>
  );
}
