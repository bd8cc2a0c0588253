import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Schemas } from '../../api/client';
import { useDeleteDatasetTicket } from '../../api/queries/datasets';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { ticketLabel } from './datasets';

/** "Delete" on a ticket's row, confirmed in a modal; the tickets after it move up a place. */
export function DeleteTicket({ datasetId, item }: { datasetId: string; item: Schemas['DatasetTicketDto'] }) {
  const label = ticketLabel(item);
  const remove = useDeleteDatasetTicket(datasetId, item.id, {
    onSuccess: () =>
      notifications.show({ color: 'green', title: 'Ticket deleted', message: `${label} was deleted.` }),
  });
  return (
    <ConfirmButton
      label="Delete"
      buttonProps={{ color: 'red', variant: 'subtle', size: 'xs', 'aria-label': `Delete ${label}` }}
      title="Delete this ticket?"
      confirmLabel="Delete ticket"
      cancelLabel="Keep it"
      action={remove}
      errorTitle="Could not delete the ticket"
    >
      <Text span fw={600}>
        {label}
      </Text>{' '}
      ({item.ticket.subject}) will be deleted from the dataset. This cannot be undone.
    </ConfirmButton>
  );
}
