import { Button, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDeletePack } from '../../api/queries/packs';
import { ConfirmModal } from '../../ui/ConfirmModal';

/** "Delete pack": confirmed by typing the pack's name; then back to /packs. */
export function DeletePackButton({ packId, name }: { packId: string; name: string }) {
  const [opened, { open, close }] = useDisclosure();
  const [typed, setTyped] = useState('');
  const navigate = useNavigate();
  const remove = useDeletePack(packId, {
    onSuccess: () => {
      notifications.show({ color: 'green', message: `Pack "${name}" deleted` });
      void navigate('/packs');
    },
  });

  function cancel() {
    setTyped('');
    remove.reset();
    close();
  }

  return (
    <>
      <Button color="red" variant="light" onClick={open}>
        Delete pack
      </Button>
      <ConfirmModal
        opened={opened}
        title="Delete this pack?"
        confirmLabel="Confirm delete"
        confirmDisabled={typed !== name}
        action={remove}
        errorTitle="The pack was not deleted"
        onClose={cancel}
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
      </ConfirmModal>
    </>
  );
}
