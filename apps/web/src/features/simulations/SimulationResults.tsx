import {
  Anchor,
  Button,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { useSimulationEvaluations } from '../../api/queries/evaluations';
import { formatDateTime } from '../../lib/format';
import { isActive } from '../../lib/simulation-status';
import { TICKET_STATUSES, type TicketStatus } from './simulations';
import { Empty, ErrorNotice, Loading } from '../../ui/states';
import { StatusBadge } from '../../ui/StatusBadge';

type Filter = TicketStatus | 'all';

/** The simulation's evaluations (GET /api/evaluations?simulationId=), each linking to its page. */
function Evaluations({ simulationId }: { simulationId: string }) {
  const [filter, setFilter] = useState<Filter>('all');
  const evaluations = useSimulationEvaluations(simulationId, filter);
  const items = evaluations.data?.pages.flatMap((page) => page.items) ?? [];

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
      {evaluations.isPending ? (
        <Loading label="Loading evaluations" />
      ) : evaluations.isError && !evaluations.data ? (
        <ErrorNotice error={evaluations.error} />
      ) : !items.length ? (
        <Empty title="No evaluations here" />
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col">Judged</Table.Th>
                <Table.Th scope="col">Latency</Table.Th>
                <Table.Th scope="col">Evaluation</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>
                    <StatusBadge status={item.status} />
                  </Table.Td>
                  <Table.Td>{formatDateTime(item.createdAt)}</Table.Td>
                  <Table.Td>{item.latencyMs} ms</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/evaluations/${item.id}`} size="sm">
                      Open evaluation
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {evaluations.isFetchNextPageError && (
        <ErrorNotice error={evaluations.error} title="Could not load more evaluations" />
      )}
      {evaluations.hasNextPage && (
        <Button
          variant="default"
          onClick={() => void evaluations.fetchNextPage()}
          loading={evaluations.isFetchingNextPage}
          style={{ alignSelf: 'flex-start' }}
        >
          Load more evaluations
        </Button>
      )}
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
