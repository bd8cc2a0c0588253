import { Anchor, Badge, Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import { errorMessage, type Schemas } from '../../api/client';
import { useDeliveries, useRedeliver } from '../../api/queries/integrations';
import { shortId } from '../../lib/format';
import { DELIVERY_STATUS_COLORS, describeStatusCode, nextRetryAt } from './integrations';
import { DataTable, type Column } from '../../ui/DataTable';
import { PagedQueryState } from '../../ui/PagedQueryState';
import { Empty } from '../../ui/states';
import { When } from '../../ui/When';

type Delivery = Schemas['DeliveryDto'];

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

  const columns: Column<Delivery>[] = [
    {
      header: 'Event',
      cell: (delivery) => (
        <>
          <Text size="sm">{delivery.type}</Text>
          {delivery.alertId ? (
            <Text size="xs" c="dimmed">
              Quality alert {shortId(delivery.alertId)}
            </Text>
          ) : delivery.simulationId ? (
            <Anchor component={Link} to={`/simulations/${delivery.simulationId}`} size="xs">
              Simulation {shortId(delivery.simulationId)}
            </Anchor>
          ) : (
            <Anchor component={Link} to={`/evaluations/${delivery.evaluationId}`} size="xs">
              Evaluation {shortId(delivery.evaluationId ?? '')}
            </Anchor>
          )}
        </>
      ),
    },
    {
      header: 'Status',
      cellProps: { maw: 240 },
      cell: (delivery) => (
        <>
          <Badge variant="dot" color={DELIVERY_STATUS_COLORS[delivery.status]}>
            {delivery.status}
          </Badge>
          {delivery.lastError && (
            <Text size="xs" c="dimmed" lineClamp={2} title={delivery.lastError}>
              {delivery.lastError}
            </Text>
          )}
        </>
      ),
    },
    { header: 'Status code', cell: (delivery) => describeStatusCode(delivery) },
    { header: 'Attempts', cell: (delivery) => delivery.attempts },
    { header: 'Time', cell: (delivery) => <When iso={delivery.updatedAt} /> },
    {
      header: 'Next retry',
      cell: (delivery) => {
        const at = nextRetryAt(delivery);
        return at ? <When iso={at} /> : '—';
      },
    },
    {
      header: 'Actions',
      cell: (delivery) => (
        <>
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
        </>
      ),
    },
  ];

  return (
    <PagedQueryState
      query={deliveries}
      noun="deliveries"
      empty={
        <Empty title="No deliveries yet">
          Once a ticket sent to the inbound webhook is judged, its signed completion is delivered to your
          endpoint and listed here.
        </Empty>
      }
    >
      {(items) => <DataTable rows={items} columns={columns} minWidth={840} />}
    </PagedQueryState>
  );
}
