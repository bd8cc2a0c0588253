import { Checkbox, Modal, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiError, type Schemas } from '../../api/client';
import { useCreateApiKey } from '../../api/queries/integrations';
import {
  fieldError,
  PERMISSION_DESCRIPTIONS,
  PERMISSIONS,
  validateKeyName,
  validatePermissions,
  type Permission,
} from './integrations';
import { FormActions } from '../../ui/FormActions';
import { ErrorNotice } from '../../ui/states';

export function CreateKeyModal({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (key: Schemas['ApiKeyWithSecretDto']) => void;
}) {
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>([...PERMISSIONS]);
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateApiKey({ onSuccess: onCreated });
  const apiError = create.error instanceof ApiError ? create.error : undefined;
  const nameError = (submitted ? validateKeyName(name) : undefined) ?? fieldError(apiError, 'name');
  const permissionsError =
    (submitted ? validatePermissions(permissions) : undefined) ?? fieldError(apiError, 'permissions');
  const otherError = create.error && !fieldError(apiError, 'name') && !fieldError(apiError, 'permissions');

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (validateKeyName(name) || validatePermissions(permissions)) return;
    create.mutate({ name: name.trim(), permissions });
  }

  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title="Create an API key"
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Key name"
            description="What uses this key, for example “zendesk integration”."
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={nameError}
            maxLength={100}
            required
            data-autofocus
          />
          <Checkbox.Group
            label="Permissions"
            description="What requests with this key may do."
            value={permissions}
            onChange={(value) =>
              setPermissions(PERMISSIONS.filter((permission) => value.includes(permission)))
            }
            error={permissionsError}
          >
            <Stack gap="xs" mt="xs">
              {PERMISSIONS.map((permission) => (
                <Checkbox
                  key={permission}
                  value={permission}
                  label={permission}
                  description={PERMISSION_DESCRIPTIONS[permission]}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          {otherError ? <ErrorNotice error={create.error} title="Could not create the key" /> : null}
          <FormActions label="Create" pending={create.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
