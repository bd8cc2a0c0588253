import { TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDeletePack } from '../../api/queries/packs';
import { ConfirmButton } from '../../ui/ConfirmButton';

/** "Delete pack": confirmed by typing the pack's name; then back to /packs. */
export function DeletePackButton({ packId, name }: { packId: string; name: string }) {
  const [typed, setTyped] = useState('');
  const navigate = useNavigate();
  const remove = useDeletePack(packId, {
    onSuccess: () => {
      notifications.show({ color: 'green', message: `Pack "${name}" deleted` });
      void navigate('/packs');
    },
  });

  return (
    <ConfirmButton
      label="Delete pack"
      buttonProps={{ color: 'red', variant: 'light' }}
      title="Delete this pack?"
      confirmLabel="Confirm delete"
      confirmDisabled={typed !== name}
      action={remove}
      errorTitle="The pack was not deleted"
      onClose={() => setTyped('')}
      details={
        <TextInput
          label="Type the pack name to confirm"
          description={name}
          data-autofocus
          autoComplete="off"
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
        />
      }
    >
      The pack disappears from every pack route and can no longer judge tickets. Its evaluations stay
      readable. There is no undo.
    </ConfirmButton>
  );
}
