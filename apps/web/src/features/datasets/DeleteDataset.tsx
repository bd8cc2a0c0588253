import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { useDeleteDataset } from '../../api/queries/datasets';
import { ErrorNotice } from '../../ui/states';

/** "Delete dataset", confirmed in a modal; back to the list afterwards. */
export function DeleteDataset({ datasetId, name }: { datasetId: string; name: string }) {
  const [opened, { open, close }] = useDisclosure(false);
  const navigate = useNavigate();
  const remove = useDeleteDataset(datasetId, {
    onSuccess: async () => {
      close();
      notifications.show({ color: 'green', title: 'Dataset deleted', message: `${name} was deleted.` });
      await navigate('/datasets');
    },
  });

  return (
    <>
      <Button color="red" variant="light" onClick={open}>
        Delete dataset
      </Button>
      <Modal opened={opened} onClose={close} title="Delete this dataset?" centered>
        <Stack>
          <Text size="sm">
            <Text span fw={600}>
              {name}
            </Text>{' '}
            and its tickets will be deleted. This cannot be undone.
          </Text>
          {remove.error && <ErrorNotice error={remove.error} title="Could not delete the dataset" />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Keep it
            </Button>
            <Button color="red.9" onClick={() => remove.mutate()} loading={remove.isPending}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
