import { Badge, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { estimateText, formatCount, formatDateTime, formatLatency, formatPercent } from '../../lib/format';
import { CostText } from '../../ui/CostText';
import { DataTable } from '../../ui/DataTable';
import { Figure } from '../../ui/Figure';
import { Panel } from '../../ui/Panel';
import { FlipMatrixTable } from './FlipMatrixTable';
import { runScopeText, runStatusText, statusChangeText } from './shadow';

type Run = Schemas['ShadowRunDetailDto'];
type Report = Schemas['ShadowReportDto'];

function Progress({ run }: { run: Run }) {
  const { report } = run;
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Badge color={run.status === 'active' ? 'blue' : 'gray'} variant="light">
          {runStatusText(run)}
        </Badge>
        <Text size="sm" c="dimmed">
          {runScopeText(run)}. Started {formatDateTime(run.createdAt)}
          {run.stoppedAt ? `, stopped ${formatDateTime(run.stoppedAt)}` : ''}.
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 2, sm: run.maxJudgments === null ? 4 : 5 }}>
        <Figure label="Sampled" value={formatCount(report.sampled)} />
        <Figure label="Judged" value={formatCount(report.judged)} />
        <Figure label="Failed" value={formatCount(report.failed)} />
        <Figure label="Pending" value={formatCount(report.pending)} />
        {run.maxJudgments !== null && <Figure label="Cap" value={formatCount(run.maxJudgments)} />}
      </SimpleGrid>
    </Stack>
  );
}

function StatusChanges({ report }: { report: Report }) {
  return (
    <Stack gap="xs">
      <Title order={4}>Statuses</Title>
      <DataTable
        rows={report.statusChanges}
        rowKey={(row) => `${row.from}-${row.to}`}
        caption="Live status → shadow status, over the judged tickets"
        empty={
          <Text size="sm" c="dimmed">
            No ticket judged yet.
          </Text>
        }
        columns={[
          { header: 'Live → shadow', rowHeader: true, cell: (row) => statusChangeText(row) },
          { header: 'Tickets', cell: (row) => formatCount(row.count) },
        ]}
      />
      <Text size="sm">
        Sent to review: {formatPercent(report.reviewShare.live, 1)} live,{' '}
        {formatPercent(report.reviewShare.shadow, 1)} shadow.
      </Text>
    </Stack>
  );
}

function Agreement({ report }: { report: Report }) {
  return (
    <Stack gap="xs">
      <Title order={4}>Agreement with reviewers</Title>
      <DataTable
        rows={report.agreement}
        rowKey={(row) => row.questionId}
        caption="Each version's agreement with reviewer labels on the same tickets, with 95% intervals"
        empty={
          <Text size="sm" c="dimmed">
            No reviewer labels on these tickets yet.
          </Text>
        }
        columns={[
          { header: 'Question', rowHeader: true, cell: (row) => row.questionId },
          { header: 'Labels', cell: (row) => formatCount(row.labels) },
          { header: 'Live', cell: (row) => estimateText(row.live) ?? 'No labels yet' },
          { header: 'Shadow', cell: (row) => estimateText(row.shadow) ?? 'No labels yet' },
        ]}
      />
    </Stack>
  );
}

function Usage({ report }: { report: Report }) {
  const rows = [
    { id: 'live', side: 'Live', usage: report.usage.live },
    { id: 'shadow', side: 'Shadow', usage: report.usage.shadow },
  ];
  return (
    <Stack gap="xs">
      <Title order={4}>Usage</Title>
      <DataTable
        rows={rows}
        minWidth={560}
        label="Usage of both versions"
        caption="Tokens, latency and cost over the judged tickets"
        columns={[
          { header: 'Version', rowHeader: true, cell: (row) => row.side },
          { header: 'Input tokens', cell: (row) => formatCount(row.usage.inputTokens) },
          { header: 'Output tokens', cell: (row) => formatCount(row.usage.outputTokens) },
          { header: 'Mean latency', cell: (row) => formatLatency(row.usage.meanLatencyMs) },
          { header: 'p95 latency', cell: (row) => formatLatency(row.usage.p95LatencyMs) },
          {
            header: 'Cost',
            cell: (row) => <CostText cost={row.usage.cost} />,
          },
        ]}
      />
    </Stack>
  );
}

/** The report of one run: progress, statuses, answer flips per question, agreement and usage. */
export function ShadowReport({ run }: { run: Run }) {
  const { report } = run;
  return (
    <Panel title={`Report of the run started ${formatDateTime(run.createdAt)}`}>
      <Progress run={run} />
      {report.failed > 0 && (
        <Text size="sm" c="red.8">
          {formatCount(report.failed)} shadow judgments failed (recorded as review): fix the candidate or the
          gateway before reading the rest.
        </Text>
      )}
      <StatusChanges report={report} />
      <Stack gap="md">
        <Title order={4}>Answers</Title>
        {report.questions.length === 0 ? (
          <Text size="sm" c="dimmed">
            No ticket judged yet.
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {report.questions.map((question) => (
              <FlipMatrixTable key={question.questionId} question={question} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
      <Agreement report={report} />
      <Usage report={report} />
    </Panel>
  );
}
