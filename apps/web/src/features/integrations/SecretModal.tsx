import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import type { ReactNode } from 'react';

/** A secret the API returns once: shown read-only with a copy button, until "Done". */
export function SecretModal({
  title,
  label,
  secret,
  children,
  onClose,
}: {
  title: string;
  label: string;
  secret: string;
  children?: ReactNode;
  onClose: () => void;
}) {
  const clipboard = useClipboard({ timeout: 4000 });
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={title}
      closeOnClickOutside={false}
      size="lg"
    >
      <Stack>
        <Alert
          color="yellow"
          title="Shown only this once"
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          Copy it now and keep it somewhere safe. It will not be shown again: only a hash is kept, so a lost
          secret can only be replaced.
        </Alert>
        {children ? <Text size="sm">{children}</Text> : null}
        <TextInput
          label={label}
          value={secret}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <Group justify="space-between">
          <Group gap="sm">
            <Button variant="default" onClick={() => clipboard.copy(secret)}>
              Copy
            </Button>
            <Text size="sm" role="status" aria-live="polite">
              {clipboard.copied ? 'Copied to the clipboard' : ''}
              {clipboard.error ? 'Copying failed: select the text and copy it yourself' : ''}
            </Text>
          </Group>
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
