import { Anchor, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { useSimulationEvaluations } from '../../api/queries/evaluations';
import { formatDateTime } from '../../lib/format';
import { isActive } from '../../lib/simulation-status';
import { TICKET_STATUSES, type TicketStatus } from './simulations';
import { DataTable, type Column } from '../../ui/DataTable';
import { PagedQueryState } from '../../ui/PagedQueryState';
import { Empty } from '../../ui/states';
import { StatusBadge } from '../../ui/StatusBadge';

type Filter = TicketStatus | 'all';

const COLUMNS: Column<Schemas['EvaluationSummaryDto']>[] = [
  { header: 'Status', cell: (item) => <StatusBadge status={item.status} /> },
  { header: 'Judged', cell: (item) => formatDateTime(item.createdAt) },
  { header: 'Latency', cell: (item) => `${item.latencyMs} ms` },
  {
    header: 'Evaluation',
    cell: (item) => (
      <Anchor component={Link} to={`/evaluations/${item.id}`} size="sm">
        Open evaluation
      </Anchor>
    ),
  },
];

/** The simulation's evaluations (GET /api/evaluations?simulationId=), each linking to its page. */
function Evaluations({ simulationId }: { simulationId: string }) {
  const [filter, setFilter] = useState<Filter>('all');
  const evaluations = useSimulationEvaluations(simulationId, filter);

  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label="Show evaluations"
        value={filter}
        onChange={(value) => setFilter(value)}
        data={[
          { value: 'all', label: 'All' },
          ...TICKET_STATUSES.map((status) => ({
            value: status,
            label: status[0].toUpperCase() + status.slice(1),
          })),
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      <PagedQueryState query={evaluations} noun="evaluations" empty="No evaluations here">
        {(items) => <DataTable rows={items} columns={COLUMNS} minWidth={480} verticalSpacing="xs" />}
      </PagedQueryState>
    </Stack>
  );
}

/** Tickets by status (accept, review, reject), then the evaluations once the run has stopped. */
export function SimulationResults({ simulation }: { simulation: Schemas['SimulationDto'] }) {
  const active = isActive(simulation.status);
  return (
    <Stack gap="sm" component="section" aria-labelledby="results-heading">
      <Title order={3} size="h4" id="results-heading">
        {active ? 'Results so far' : 'Results'}
      </Title>
      <SimpleGrid cols={3} spacing="sm">
        {TICKET_STATUSES.map((status) => (
          <Paper key={status} withBorder p="sm">
            <Text size="xs" c="dimmed" tt="capitalize">
              {status}
            </Text>
            <Text fw={700} size="xl">
              {simulation.byStatus[status]}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      {!active &&
        (simulation.completed > 0 ? (
          <Evaluations simulationId={simulation.id} />
        ) : (
          <Empty title="No ticket was judged" />
        ))}
    </Stack>
  );
}
