import { Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormActions } from './FormActions';
import { ErrorNotice } from './states';

/**
 * "Are you sure?" before a mutation: what to read first (`lead`, optional), the consequence in a
 * sentence, anything else it needs (`details`), its error, then "Cancel" and the action (red unless
 * `danger` is false).
 */
export function ConfirmModal({
  opened = true,
  title,
  lead,
  children,
  details,
  confirmLabel,
  cancelLabel,
  danger = true,
  confirmDisabled,
  action,
  errorTitle,
  onClose,
}: {
  opened?: boolean;
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  details?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  confirmDisabled?: boolean;
  /** The mutation the button runs: its pending state and its error show here. */
  action: { isPending: boolean; error: unknown; mutate: () => void };
  errorTitle: string;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} closeButtonProps={{ 'aria-label': 'Close' }} title={title}>
      <Stack>
        {lead}
        <Text size="sm">{children}</Text>
        {details}
        {action.error ? <ErrorNotice error={action.error} title={errorTitle} /> : null}
        <FormActions
          label={confirmLabel}
          color={danger ? 'red.9' : undefined}
          pending={action.isPending}
          disabled={confirmDisabled}
          onSubmit={() => action.mutate()}
          cancelLabel={cancelLabel}
          onCancel={onClose}
        />
      </Stack>
    </Modal>
  );
}
