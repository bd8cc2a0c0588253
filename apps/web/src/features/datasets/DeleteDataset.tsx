import { Button, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { useDeleteDataset } from '../../api/queries/datasets';
import { ConfirmModal } from '../../ui/ConfirmModal';

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
      <ConfirmModal
        opened={opened}
        title="Delete this dataset?"
        confirmLabel="Delete"
        cancelLabel="Keep it"
        action={remove}
        errorTitle="Could not delete the dataset"
        onClose={close}
      >
        <Text span fw={600}>
          {name}
        </Text>{' '}
        and its tickets will be deleted. This cannot be undone.
      </ConfirmModal>
    </>
  );
}
