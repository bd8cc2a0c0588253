import { Button, Group, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiError, unwrap } from '../../api/client';
import { ErrorNotice } from '../../ui/states';
import { datasetKeys } from './queries';

/** "Dataset name" and "Create dataset", which opens the new dataset to upload tickets into it. */
export function CreateDatasetForm() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: (body: { name: string }) => unwrap(api.POST('/api/datasets', { body })),
    onSuccess: async (dataset) => {
      notifications.show({ color: 'green', title: 'Dataset created', message: dataset.name });
      queryClient.setQueryData(datasetKeys.one(dataset.id), dataset);
      void queryClient.invalidateQueries({ queryKey: datasetKeys.list });
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
