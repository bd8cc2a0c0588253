import { Alert } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useRestoreVersion } from '../../api/queries/packs';
import { ConfirmButton } from '../../ui/ConfirmButton';

interface Props {
  packId: string;
  versionId: string;
  /** "version 2", as the table names it. */
  name: string;
  /** The draft editor holds edits that are not saved: the restore replaces them. */
  draftDirty: boolean;
  onRestored?: () => void;
}

/** Rollback, with a confirmation: the version's document replaces the draft's; nothing is published. */
export function RestoreVersionButton({ packId, versionId, name, draftDirty, onRestored }: Props) {
  const restore = useRestoreVersion(packId, {
    onSuccess: () => {
      notifications.show({
        color: 'green',
        message: `The draft now holds ${name}. Publish it to make it live again.`,
      });
      onRestored?.();
    },
  });
  return (
    <ConfirmButton
      label="Restore into draft"
      buttonProps={{ size: 'xs', variant: 'light', 'aria-label': `Restore into draft: ${name}` }}
      title={`Restore ${name} into the draft?`}
      confirmLabel="Confirm restore"
      danger={false}
      action={{
        isPending: restore.isPending,
        error: restore.error,
        reset: restore.reset,
        mutate: (_: undefined, options: { onSuccess: () => void }) => restore.mutate(versionId, options),
      }}
      errorTitle="The version was not restored"
      details={
        draftDirty && (
          <Alert color="yellow" title="Unsaved edits">
            Your unsaved edits in the draft editor are replaced too.
          </Alert>
        )
      }
    >
      The draft&apos;s questions are replaced by those of {name}. The live version does not change until you
      publish the draft.
    </ConfirmButton>
  );
}
