import { Button, Group, type MantineColor } from '@mantine/core';

/**
 * The end of a form or dialog: "Cancel", then the action. Without `onSubmit` the action submits
 * the form it stands in.
 */
export function FormActions({
  label,
  pending = false,
  disabled,
  color,
  onSubmit,
  cancelLabel = 'Cancel',
  onCancel,
}: {
  label: string;
  pending?: boolean;
  disabled?: boolean;
  color?: MantineColor;
  onSubmit?: () => void;
  cancelLabel?: string;
  onCancel: () => void;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button
        type={onSubmit ? 'button' : 'submit'}
        color={color}
        loading={pending}
        disabled={disabled}
        onClick={onSubmit}
      >
        {label}
      </Button>
    </Group>
  );
}
