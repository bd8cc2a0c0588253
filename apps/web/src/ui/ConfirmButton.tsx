import { Button, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ComponentProps, ReactNode } from 'react';
import { ConfirmModal } from './ConfirmModal';

/** A mutation of no variables, as TanStack Query's `useMutation` returns it. */
interface ConfirmedAction {
  isPending: boolean;
  error: unknown;
  mutate: (variables: undefined, options: { onSuccess: () => void }) => void;
  reset: () => void;
}

type ModalProps = Omit<ComponentProps<typeof ConfirmModal>, 'opened' | 'action' | 'onClose' | 'lead'>;

/**
 * A button that opens a `ConfirmModal` for its mutation. The modal closes when the mutation
 * succeeds; closing it otherwise forgets the mutation's error and calls `onClose` (to clear what
 * `details` holds). `lead` may be a function of `cancel`, for a link inside it that leaves the dialog.
 */
export function ConfirmButton({
  label,
  buttonProps,
  action,
  onClose,
  lead,
  ...modal
}: ModalProps & {
  label: string;
  lead?: ReactNode | ((cancel: () => void) => ReactNode);
  /** The button's props: Mantine's, `aria-label` (one per table row) and `aria-describedby` (why it is disabled). */
  buttonProps?: ButtonProps & { 'aria-describedby'?: string; 'aria-label'?: string };
  action: ConfirmedAction;
  onClose?: () => void;
}) {
  const [opened, { open, close }] = useDisclosure(false);

  function cancel() {
    action.reset();
    onClose?.();
    close();
  }

  return (
    <>
      <Button {...buttonProps} onClick={open}>
        {label}
      </Button>
      <ConfirmModal
        {...modal}
        lead={typeof lead === 'function' ? lead(cancel) : lead}
        opened={opened}
        action={{
          isPending: action.isPending,
          error: action.error,
          mutate: () => action.mutate(undefined, { onSuccess: close }),
        }}
        onClose={cancel}
      />
    </>
  );
}
