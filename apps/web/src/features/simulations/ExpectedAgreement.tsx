import { Anchor, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { useSimulationDisagreements } from '../../api/queries/simulations';
import { formatPercent } from '../../lib/format';
import { isActive } from '../../lib/simulation-status';
import { DataTable, type Column } from '../../ui/DataTable';
import { ONE_LISTBOX } from '../../ui/listbox';
import { Panel } from '../../ui/Panel';
import { QueryState } from '../../ui/states';

type Agreement = Schemas['QuestionAgreementDto'];
type Disagreement = Schemas['ExpectedDisagreementPageDto']['items'][number];

const AGREEMENT_COLUMNS: Column<Agreement>[] = [
  { header: 'Question', rowHeader: true, cell: (row) => row.questionId },
  { header: 'Compared', cell: (row) => row.compared },
  { header: 'Agreed', cell: (row) => row.agreed },
  { header: 'Agreement', cell: (row) => (row.rate === null ? '—' : formatPercent(row.rate)) },
];

const DISAGREEMENT_COLUMNS: Column<Disagreement>[] = [
  { header: '#', cell: (row) => row.position + 1 },
  { header: 'External id', cell: (row) => row.externalId ?? '—' },
  {
    header: 'Subject',
    cell: (row) => (
      <Text size="sm" lineClamp={2}>
        {row.subject}
      </Text>
    ),
  },
  { header: 'Question', cell: (row) => row.questionId },
  { header: 'Expected', cell: (row) => String(row.expected) },
  { header: 'Answer', cell: (row) => row.answer ?? 'no answer' },
  {
    header: 'Evaluation',
    cell: (row) => (
      <Anchor component={Link} to={`/evaluations/${row.evaluationId}`} size="sm">
        Open evaluation
      </Anchor>
    ),
  },
];

function Disagreements({ simulation }: { simulation: Schemas['SimulationDto'] }) {
  const [questionId, setQuestionId] = useState<string | null>(null);
  const disagreements = useSimulationDisagreements(simulation, questionId);
  return (
    <Stack gap="sm">
      <Select
        comboboxProps={ONE_LISTBOX}
        label="Disagreeing tickets for"
        data={[
          { value: '', label: 'All questions' },
          ...(simulation.expectedAgreement ?? []).map((row) => ({
            value: row.questionId,
            label: row.questionId,
          })),
        ]}
        value={questionId ?? ''}
        onChange={(value) => setQuestionId(value || null)}
        allowDeselect={false}
        w={280}
      />
      <QueryState query={disagreements}>
        {(page) => (
          <DataTable
            rows={page.items}
            rowKey={(row) => `${row.ticketId}:${row.questionId}`}
            columns={DISAGREEMENT_COLUMNS}
            minWidth={760}
            verticalSpacing="xs"
            caption={
              page.total > page.items.length
                ? `The first ${page.items.length} of ${page.total} disagreements.`
                : `${page.total} ${page.total === 1 ? 'disagreement' : 'disagreements'}.`
            }
            empty={<Text size="sm">Every compared answer is the expected one.</Text>}
          />
        )}
      </QueryState>
    </Stack>
  );
}

/**
 * The run against its dataset's expected answers: per question, how many tickets were compared
 * and agreed, then the tickets whose answer differs. Nothing when the dataset carries none.
 */
export function ExpectedAgreement({ simulation }: { simulation: Schemas['SimulationDto'] }) {
  if (!simulation.expectedAgreement) return null;
  return (
    <Panel title="Expected answers" size="h4">
      <Text size="sm" c="dimmed">
        Agreement with the expected answers the dataset carries, per question of this version
        {isActive(simulation.status) ? ', over the tickets judged so far' : ''}.
      </Text>
      <DataTable
        rows={simulation.expectedAgreement}
        rowKey={(row) => row.questionId}
        columns={AGREEMENT_COLUMNS}
        minWidth={420}
        label="Agreement per question"
        verticalSpacing="xs"
      />
      <Disagreements simulation={simulation} />
    </Panel>
  );
}
