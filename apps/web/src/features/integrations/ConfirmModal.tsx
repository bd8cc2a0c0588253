import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorNotice } from '../../ui/states';

/** "Are you sure?" for an action that cannot be undone; the action's error shows inside. */
export function ConfirmModal({
  title,
  children,
  confirmLabel,
  pending,
  error,
  errorTitle,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pending: boolean;
  error: unknown;
  errorTitle: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ 'aria-label': 'Close' }} title={title}>
      <Stack>
        <Text size="sm">{children}</Text>
        {error ? <ErrorNotice error={error} title={errorTitle} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red.9" loading={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
