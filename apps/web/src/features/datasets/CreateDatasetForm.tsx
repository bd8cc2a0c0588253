import { Button, Group, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { useCreateDataset } from '../../api/queries/datasets';
import { ErrorNotice } from '../../ui/states';

/** "Dataset name" and "Create dataset", which opens the new dataset to upload tickets into it. */
export function CreateDatasetForm() {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const create = useCreateDataset({
    onSuccess: async (dataset) => {
      notifications.show({ color: 'green', title: 'Dataset created', message: dataset.name });
      await navigate(`/datasets/${dataset.id}`);
    },
  });
  const fieldError = create.error instanceof ApiError ? create.error.issueFor('name') : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name: name.trim() });
  };

  return (
    <form onSubmit={submit} aria-label="New dataset">
      <Group align="flex-start" wrap="wrap" gap="sm">
        <TextInput
          label="Dataset name"
          placeholder="November billing tickets"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          maxLength={200}
          required
          error={fieldError}
          style={{ flex: '1 1 240px' }}
        />
        <Button type="submit" loading={create.isPending} mt={{ base: 0, xs: 25 }}>
          Create dataset
        </Button>
      </Group>
      {create.error && !fieldError && (
        <ErrorNotice error={create.error} title="Could not create the dataset" />
      )}
    </form>
  );
}
