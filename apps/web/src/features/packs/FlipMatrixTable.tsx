import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { shortId } from '../../lib/format';
import { DataTable } from '../../ui/DataTable';
import { flipMatrix } from './shadow';

type FlipCell = Schemas['FlipCellDto'];

/** A cell's count; off the diagonal, the evaluations behind it, each a link to its page. */
function FlipCount({ cell, diagonal }: { cell: FlipCell | undefined; diagonal: boolean }) {
  if (!cell)
    return (
      <Text size="sm" c="dimmed">
        0
      </Text>
    );
  if (diagonal || cell.evaluationIds.length === 0) return <Text size="sm">{cell.count}</Text>;
  return (
    <Stack gap={2}>
      <Text size="sm" fw={700}>
        {cell.count}
      </Text>
      <Group gap={6}>
        {cell.evaluationIds.map((id) => (
          <Anchor
            key={id}
            component={Link}
            to={`/evaluations/${id}`}
            size="xs"
            ff="monospace"
            aria-label={`Evaluation ${shortId(id)}: ${cell.from} live, ${cell.to} shadow`}
          >
            {shortId(id)}
          </Anchor>
        ))}
      </Group>
      {cell.count > cell.evaluationIds.length && (
        <Text size="xs" c="dimmed">
          The first {cell.evaluationIds.length} shown
        </Text>
      )}
    </Stack>
  );
}

/**
 * One question's answer-flip matrix: live answers as rows, shadow answers as columns, the count of
 * each pair; a changed answer's cell links to its evaluations.
 */
export function FlipMatrixTable({ question }: { question: Schemas['QuestionFlipsDto'] }) {
  const matrix = flipMatrix(question);
  return (
    <Stack gap={4} component="section" aria-label={`Answers to ${question.questionId}`}>
      <Title order={5}>{question.questionId}</Title>
      <Text size="sm" c="dimmed">
        {question.changed} of {question.compared} answers changed
      </Text>
      {matrix.rows.length > 0 && (
        <DataTable
          rows={matrix.rows}
          rowKey={(row) => row}
          withTableBorder
          withColumnBorders
          minWidth={320}
          caption={`${question.questionId}: live answers (rows) against shadow answers (columns)`}
          columns={[
            { header: 'Live \\ Shadow', rowHeader: true, cell: (row) => row },
            ...matrix.columns.map((column) => ({
              header: column,
              cell: (row: string) => <FlipCount cell={matrix.cell(row, column)} diagonal={row === column} />,
            })),
          ]}
        />
      )}
    </Stack>
  );
}
