import { Anchor, Badge, Button, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { useDeliveries, useRedeliver } from '../../api/queries/integrations';
import { shortId } from '../../lib/format';
import { DELIVERY_STATUS_COLORS, describeStatusCode } from './integrations';
import { When } from '../dashboard/When';
import { Empty, ErrorNotice, Loading } from '../../ui/states';

/** Completion deliveries, newest first, 50 a page, each with "Redeliver". */
export function DeliveriesTable() {
  const deliveries = useDeliveries();
  const redeliver = useRedeliver({
    onSuccess: () =>
      notifications.show({
        color: 'teal',
        message: 'The delivery is queued to be sent again.',
        closeButtonProps: { 'aria-label': 'Close' },
      }),
  });

  if (deliveries.isPending) return <Loading label="Loading deliveries" />;
  if (deliveries.isError && !deliveries.data)
    return <ErrorNotice error={deliveries.error} title="Could not load deliveries" />;
  const items = deliveries.data.pages.flatMap((page) => page.items);
  if (items.length === 0)
    return (
      <Empty title="No deliveries yet">
        Once a ticket sent to the inbound webhook is judged, its signed completion is delivered to your
        endpoint and listed here.
      </Empty>
    );

  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Event</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Status code</Table.Th>
              <Table.Th scope="col">Attempts</Table.Th>
              <Table.Th scope="col">Time</Table.Th>
              <Table.Th scope="col">Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((delivery) => (
              <Table.Tr key={delivery.id}>
                <Table.Td>
                  <Text size="sm">{delivery.type}</Text>
                  {delivery.simulationId ? (
                    <Anchor component={Link} to={`/simulations/${delivery.simulationId}`} size="xs">
                      Simulation {shortId(delivery.simulationId)}
                    </Anchor>
                  ) : (
                    <Anchor component={Link} to={`/evaluations/${delivery.evaluationId}`} size="xs">
                      Evaluation {shortId(delivery.evaluationId ?? '')}
                    </Anchor>
                  )}
                </Table.Td>
                <Table.Td maw={240}>
                  <Badge variant="dot" color={DELIVERY_STATUS_COLORS[delivery.status]}>
                    {delivery.status}
                  </Badge>
                  {delivery.lastError && (
                    <Text size="xs" c="dimmed" lineClamp={2} title={delivery.lastError}>
                      {delivery.lastError}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{describeStatusCode(delivery)}</Table.Td>
                <Table.Td>{delivery.attempts}</Table.Td>
                <Table.Td>
                  <When iso={delivery.updatedAt} />
                </Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="default"
                    loading={redeliver.isPending && redeliver.variables === delivery.id}
                    onClick={() => redeliver.mutate(delivery.id)}
                  >
                    Redeliver
                  </Button>
                  {redeliver.isError && redeliver.variables === delivery.id && (
                    <Text size="xs" fw={500} role="alert" maw={200}>
                      Redelivery failed: {errorMessage(redeliver.error)}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {deliveries.isFetchNextPageError && (
        <ErrorNotice error={deliveries.error} title="Could not load older deliveries" />
      )}
      {deliveries.hasNextPage && (
        <Button
          variant="default"
          loading={deliveries.isFetchingNextPage}
          onClick={() => void deliveries.fetchNextPage()}
          style={{ alignSelf: 'flex-start' }}
        >
          Load older deliveries
        </Button>
      )}
    </Stack>
  );
}
