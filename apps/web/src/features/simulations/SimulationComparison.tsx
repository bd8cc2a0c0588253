import { BarChart } from '@mantine/charts';
import { Alert, Anchor, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { usePackVersionDocument } from '../../api/queries/packs';
import { countLabel, formatDateTime } from '../../lib/format';
import type { PackDocument } from '../../lib/pack-document';
import {
  answerChangeText,
  comparisonExportUrl,
  questionName,
  simulationTitle,
  summarizeComparison,
  ticketLabel,
  type ComparisonSummary,
} from './simulations';
import { DataTable } from '../../ui/DataTable';
import { Empty, ErrorNotice, Loading } from '../../ui/states';
import { useSimulation, useSimulationComparison } from '../../api/queries/simulations';
import { StatusBadge } from '../../ui/StatusBadge';
import { runVersionLabel } from '../../lib/versions';

type ChangedTicket = Schemas['ChangedTicketDto'];

/** Each changed ticket: which one, its status before and after, and each changed answer before → after. */
function ChangedTickets({
  tickets,
  document,
}: {
  tickets: readonly ChangedTicket[];
  document: PackDocument | undefined;
}) {
  if (!tickets.length) return <Text size="sm">No ticket changed status or answer.</Text>;
  return (
    <DataTable
      rows={tickets}
      rowKey={(ticket) => ticket.ticketId}
      minWidth={560}
      verticalSpacing="xs"
      caption="Tickets whose status or answers changed, from this simulation to the compared one"
      columns={[
        {
          header: 'Ticket',
          rowHeader: true,
          cellProps: { style: { overflowWrap: 'anywhere', fontWeight: 'normal' } },
          cell: (ticket) => ticketLabel(ticket),
        },
        {
          header: 'Status',
          cell: (ticket) =>
            ticket.fromStatus === ticket.toStatus ? (
              <StatusBadge status={ticket.fromStatus} />
            ) : (
              <Group gap={4} wrap="nowrap" aria-label={`${ticket.fromStatus} to ${ticket.toStatus}`}>
                <StatusBadge status={ticket.fromStatus} />
                <span aria-hidden>→</span>
                <StatusBadge status={ticket.toStatus} />
              </Group>
            ),
        },
        {
          header: 'Answers changed',
          cell: (ticket) =>
            ticket.answers.length ? (
              <List size="sm" listStyleType="none">
                {ticket.answers.map((change) => (
                  <List.Item key={change.questionId}>
                    {questionName(document, change.questionId)}: {answerChangeText(change, document)}
                  </List.Item>
                ))}
              </List>
            ) : (
              <Text size="sm" c="dimmed">
                None
              </Text>
            ),
        },
        {
          header: 'Evaluations',
          cell: (ticket) => (
            <Group gap="xs" wrap="nowrap">
              <Anchor component={Link} to={`/evaluations/${ticket.fromEvaluationId}`} size="sm">
                Before
              </Anchor>
              <Anchor component={Link} to={`/evaluations/${ticket.toEvaluationId}`} size="sm">
                After
              </Anchor>
            </Group>
          ),
        },
      ]}
    />
  );
}

function QuestionChanges({
  summary,
  document,
}: {
  summary: ComparisonSummary;
  document: PackDocument | undefined;
}) {
  if (!summary.questions.length) return <Empty title="No questions in common" />;
  // A chart of zero-length bars says nothing: say it in words.
  if (summary.questions.every((row) => row.changed === 0))
    return <Text size="sm">No answers changed: every question gave the same answer on every ticket.</Text>;
  return (
    <Stack gap="sm">
      <DataTable
        rows={summary.questions}
        rowKey={(row) => row.questionId}
        minWidth={360}
        label="Answers changed per question"
        verticalSpacing="xs"
        caption="Tickets whose answer changed, per question"
        columns={[
          {
            header: 'Question',
            cellProps: { style: { overflowWrap: 'anywhere' } },
            cell: (row) => questionName(document, row.questionId),
          },
          { header: 'Tickets changed', cell: (row) => row.changed },
          { header: 'Share', cell: (row) => `${row.percent}%` },
        ]}
      />
      <figure
        style={{ margin: 0 }}
        aria-label="Bar chart: tickets changed per question (the table above has the same numbers)"
      >
        <BarChart
          h={Math.max(160, summary.questions.length * 36)}
          data={summary.questions}
          dataKey="questionId"
          orientation="vertical"
          yAxisProps={{ width: 110 }}
          xAxisProps={{ allowDecimals: false }}
          series={[{ name: 'changed', label: 'Tickets changed', color: 'indigo.6' }]}
          withBarValueLabel
        />
      </figure>
    </Stack>
  );
}

function StatusMoves({ summary }: { summary: ComparisonSummary }) {
  if (!summary.moves.length) return <Text size="sm">No ticket changed status.</Text>;
  return (
    <DataTable
      rows={summary.moves}
      rowKey={(move) => `${move.from}-${move.to}`}
      minWidth={320}
      label="Status changes"
      verticalSpacing="xs"
      caption="Status changes, from this simulation to the compared one"
      columns={[
        { header: 'From', cell: (move) => <StatusBadge status={move.from} /> },
        { header: 'To', cell: (move) => <StatusBadge status={move.to} /> },
        { header: 'Tickets', cell: (move) => move.count },
      ]}
    />
  );
}

/** This simulation against `?compare=otherId`: answers changed per question, and status moves. */
export function SimulationComparison({
  simulation,
  otherId,
}: {
  simulation: Schemas['SimulationDto'];
  otherId: string;
}) {
  const ready = simulation.status === 'completed';
  const other = useSimulation(otherId);
  const comparison = useSimulationComparison(
    simulation.id,
    otherId,
    ready && other.data?.status === 'completed',
  );
  // Question names and answer scales come from the compared run's version (the "after" side).
  const document = usePackVersionDocument(
    other.data?.packId ?? simulation.packId,
    other.data?.packVersionId ?? null,
    Boolean(other.data),
  ).data;
  // The comparison renders below the results: once it is ready, bring it into view and move focus to it.
  const heading = useRef<HTMLHeadingElement>(null);
  const arrived = comparison.data !== undefined;
  useEffect(() => {
    if (!arrived || !heading.current) return;
    heading.current.scrollIntoView({ block: 'start' });
    heading.current.focus({ preventScroll: true });
  }, [arrived]);

  let body;
  if (!ready) {
    body = <Alert color="blue">The comparison is shown once this simulation has completed.</Alert>;
  } else if (other.isError) {
    body = <ErrorNotice error={other.error} title="Comparison unavailable" />;
  } else if (other.data && other.data.status !== 'completed') {
    body = (
      <Alert color="blue">The compared simulation is {other.data.status}; it must be completed first.</Alert>
    );
  } else if (comparison.isError) {
    body = <ErrorNotice error={comparison.error} title="Comparison unavailable" />;
  } else if (!comparison.data) {
    body = <Loading label="Comparing" />;
  } else {
    const summary = summarizeComparison(comparison.data);
    body = (
      <Stack gap="md">
        <Text size="sm">
          Of {countLabel(summary.tickets, 'ticket')} judged in both, {summary.statusChanged} changed status.
        </Text>
        <Title order={4} size="h5">
          Answers changed per question
        </Title>
        <QuestionChanges summary={summary} document={document} />
        <Title order={4} size="h5">
          Status changes
        </Title>
        <StatusMoves summary={summary} />
        <Group justify="space-between" gap="xs">
          <Title order={4} size="h5">
            Changed tickets
          </Title>
          <Button
            component="a"
            href={comparisonExportUrl(simulation.id, otherId)}
            download
            variant="light"
            size="xs"
          >
            Export CSV
          </Button>
        </Group>
        <ChangedTickets tickets={comparison.data.changedTickets ?? []} document={document} />
      </Stack>
    );
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="comparison-heading">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={3} size="h4" id="comparison-heading" ref={heading} tabIndex={-1}>
            Comparison
          </Title>
          <Anchor component={Link} to={`/simulations/${simulation.id}`} size="sm">
            Stop comparing
          </Anchor>
        </Group>
        <Text size="sm" c="dimmed">
          Compared with{' '}
          <Anchor component={Link} to={`/simulations/${otherId}`} inherit>
            {other.data
              ? `${simulationTitle(other.data)} (${runVersionLabel(other.data)}), ${formatDateTime(other.data.createdAt)}`
              : 'the other simulation'}
          </Anchor>
          .
        </Text>
        {body}
      </Stack>
    </Paper>
  );
}
