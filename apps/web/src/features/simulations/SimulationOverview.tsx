import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { useCancelSimulation } from '../../api/queries/simulations';
import { formatDateTime } from '../../lib/format';
import { isActive } from '../../lib/simulation-status';
import { runVersionLabel } from '../../lib/versions';
import { durationText, remainingText } from './simulations';
import { CostText } from '../../ui/CostText';
import { ErrorNotice } from '../../ui/states';
import { SimulationProgress } from './SimulationProgress';
import { StatusBadge } from '../../ui/StatusBadge';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** What runs (dataset, pack, version), its status and live progress, and "Cancel simulation". */
export function SimulationOverview({
  simulation,
  updatedAt,
}: {
  simulation: Schemas['SimulationDto'];
  updatedAt: number;
}) {
  const cancel = useCancelSimulation(simulation.id, {
    onSuccess: () =>
      notifications.show({ title: 'Simulation cancelled', message: 'Tickets not yet judged are skipped.' }),
  });
  const active = isActive(simulation.status);
  const duration = durationText(simulation);

  return (
    <Paper withBorder p="md">
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <Group gap="xs">
            <Text size="sm" fw={600}>
              Status
            </Text>
            <StatusBadge status={simulation.status} />
          </Group>
          {active && (
            <Button color="red" variant="light" onClick={() => cancel.mutate()} loading={cancel.isPending}>
              Cancel simulation
            </Button>
          )}
        </Group>
        <SimulationProgress
          completed={simulation.completed}
          total={simulation.total}
          detail={
            simulation.status === 'queued' ? 'waiting for a worker' : remainingText(simulation, updatedAt)
          }
        />
        {cancel.error && <ErrorNotice error={cancel.error} title="Could not cancel the simulation" />}
        {simulation.status === 'failed' && (
          <Alert color="red" title="Simulation failed" role="alert">
            {simulation.reason ?? 'No reason was given.'}
          </Alert>
        )}
        {simulation.status === 'cancelled' && (
          <Text size="sm" c="dimmed">
            Cancelled: the tickets not judged before then were skipped.
          </Text>
        )}
        <SimpleGrid cols={{ base: 2, sm: 4, md: 7 }} spacing="sm">
          <Fact label="Dataset">
            <Anchor component={Link} to={`/datasets/${simulation.datasetId}`} inherit>
              {simulation.datasetName}
            </Anchor>
          </Fact>
          <Fact label="Pack">
            <Anchor component={Link} to={`/packs/${simulation.packId}`} inherit>
              {simulation.packName}
            </Anchor>
          </Fact>
          <Fact label="Pack version">{runVersionLabel(simulation)}</Fact>
          <Fact label="Created">{formatDateTime(simulation.createdAt)}</Fact>
          <Fact label="Started">{simulation.startedAt ? formatDateTime(simulation.startedAt) : '—'}</Fact>
          <Fact label={duration ? 'Took' : 'Finished'}>
            {duration ?? (simulation.finishedAt ? formatDateTime(simulation.finishedAt) : '—')}
          </Fact>
          {simulation.cost && (
            <Fact label="Cost">
              <CostText cost={simulation.cost} />
            </Fact>
          )}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
