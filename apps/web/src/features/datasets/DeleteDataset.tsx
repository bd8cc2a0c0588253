import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import { useDeleteDataset } from '../../api/queries/datasets';
import { ConfirmButton } from '../../ui/ConfirmButton';

/** "Delete dataset", confirmed in a modal; back to the list afterwards. */
export function DeleteDataset({ datasetId, name }: { datasetId: string; name: string }) {
  const navigate = useNavigate();
  const remove = useDeleteDataset(datasetId, {
    onSuccess: async () => {
      notifications.show({ color: 'green', title: 'Dataset deleted', message: `${name} was deleted.` });
      await navigate('/datasets');
    },
  });

  return (
    <ConfirmButton
      label="Delete dataset"
      buttonProps={{ color: 'red', variant: 'light' }}
      title="Delete this dataset?"
      confirmLabel="Delete"
      cancelLabel="Keep it"
      action={remove}
      errorTitle="Could not delete the dataset"
    >
      <Text span fw={600}>
        {name}
      </Text>{' '}
      and its tickets will be deleted. This cannot be undone.
    </ConfirmButton>
  );
}
