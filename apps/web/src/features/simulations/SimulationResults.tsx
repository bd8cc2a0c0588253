import {
  Anchor,
  Button,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { useSimulationEvaluations } from '../../api/queries/evaluations';
import { usePackVersionDocument } from '../../api/queries/packs';
import { answerText } from '../../lib/answers';
import { formatDateTime } from '../../lib/format';
import { findQuestion, type PackDocument } from '../../lib/pack-document';
import { isActive } from '../../lib/simulation-status';
import {
  answeredQuestions,
  questionName,
  simulationExportUrl,
  TICKET_STATUSES,
  type TicketStatus,
} from './simulations';
import { DataTable, type Column } from '../../ui/DataTable';
import { PagedQueryState } from '../../ui/PagedQueryState';
import { Empty } from '../../ui/states';
import { StatusBadge } from '../../ui/StatusBadge';

type Filter = TicketStatus | 'all';
type Item = Schemas['EvaluationListItemDto'];

/** One row per ticket: which ticket, each question's answer, the status, the latency and the evaluation. */
function resultColumns(items: readonly Item[], document: PackDocument | undefined): Column<Item>[] {
  return [
    {
      header: 'Ticket',
      rowHeader: true,
      headerProps: { miw: 200 },
      cellProps: { style: { overflowWrap: 'anywhere', fontWeight: 'normal' } },
      cell: (item) => (
        <Stack gap={0}>
          <Text size="sm">{item.subject ?? '—'}</Text>
          {item.externalId && (
            <Text size="xs" c="dimmed">
              {item.externalId}
            </Text>
          )}
        </Stack>
      ),
    },
    ...answeredQuestions(items, document).map((questionId): Column<Item> => ({
      header: questionName(document, questionId),
      cell: (item) => {
        const answer = item.answers?.[questionId];
        return answer ? answerText(answer, findQuestion(document, questionId)) : '—';
      },
    })),
    { header: 'Status', cell: (item) => <StatusBadge status={item.status} /> },
    { header: 'Latency', cell: (item) => `${item.latencyMs} ms` },
    {
      header: 'Evaluation',
      cell: (item) => (
        <Anchor
          component={Link}
          to={`/evaluations/${item.id}`}
          size="sm"
          title={formatDateTime(item.createdAt)}
        >
          Open evaluation
        </Anchor>
      ),
    },
  ];
}

/** The simulation's evaluations (GET /api/evaluations?simulationId=, 50 a page), one ticket a row. */
function Evaluations({ simulation }: { simulation: Schemas['SimulationDto'] }) {
  const [filter, setFilter] = useState<Filter>('all');
  const evaluations = useSimulationEvaluations(simulation.id, filter);
  const document = usePackVersionDocument(simulation.packId, simulation.packVersionId, true).data;

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
        {(items) => (
          <DataTable
            rows={items}
            columns={resultColumns(items, document)}
            minWidth={640}
            verticalSpacing="xs"
            caption="One row per ticket: its answers, status and evaluation"
          />
        )}
      </PagedQueryState>
    </Stack>
  );
}

/** Tickets by status (accept, review, reject), then the evaluations once the run has stopped. */
export function SimulationResults({ simulation }: { simulation: Schemas['SimulationDto'] }) {
  const active = isActive(simulation.status);
  return (
    <Stack gap="sm" component="section" aria-labelledby="results-heading">
      <Group justify="space-between" gap="xs">
        <Title order={3} size="h4" id="results-heading">
          {active ? 'Results so far' : 'Results'}
        </Title>
        {simulation.completed > 0 && (
          <Button component="a" href={simulationExportUrl(simulation.id)} download variant="light" size="xs">
            Export CSV
          </Button>
        )}
      </Group>
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
          <Evaluations simulation={simulation} />
        ) : (
          <Empty title="No ticket was judged" />
        ))}
    </Stack>
  );
}
