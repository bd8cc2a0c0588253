import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDeletePack } from '../../api/queries/packs';
import { ErrorNotice } from '../../ui/states';

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
      <Modal opened={opened} onClose={cancel} title="Delete this pack?">
        <Stack>
          <Text size="sm">
            The pack disappears from every pack route and can no longer judge tickets. Its evaluations stay
            readable. There is no undo.
          </Text>
          <TextInput
            label="Type the pack name to confirm"
            description={name}
            data-autofocus
            autoComplete="off"
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
          />
          {remove.error && <ErrorNotice error={remove.error} title="The pack was not deleted" />}
          <Group justify="flex-end">
            <Button variant="default" onClick={cancel}>
              Cancel
            </Button>
            <Button
              color="red"
              disabled={typed !== name}
              loading={remove.isPending}
              onClick={() => remove.mutate()}
            >
              Confirm delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
