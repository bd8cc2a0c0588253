import { Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { useCreatePack } from '../../api/queries/packs';
import { FormActions } from '../../ui/FormActions';
import { ErrorNotice } from '../../ui/states';
import { MINIMAL_DOCUMENT } from './packs';

/** "New pack": a name, then a pack with an empty (valid) document, then its page. */
export function NewPackModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const navigate = useNavigate();
  const create = useCreatePack({
    onSuccess: (pack) => {
      notifications.show({ color: 'green', message: `Pack "${pack.name}" created` });
      close();
      void navigate(`/packs/${pack.id}`);
    },
  });
  const error = create.error;
  const nameError = error instanceof ApiError ? error.issueFor('name') : undefined;

  function close() {
    setName('');
    create.reset();
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ name: name.trim(), document: MINIMAL_DOCUMENT });
  }

  return (
    <Modal opened={opened} onClose={close} title="New pack">
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="Name"
            required
            data-autofocus
            value={name}
            maxLength={200}
            onChange={(event) => setName(event.currentTarget.value)}
            error={nameError}
          />
          {error && !nameError && <ErrorNotice error={error} title="The pack was not created" />}
          <FormActions
            label="Create pack"
            pending={create.isPending}
            disabled={!name.trim()}
            onCancel={close}
          />
        </Stack>
      </form>
    </Modal>
  );
}
