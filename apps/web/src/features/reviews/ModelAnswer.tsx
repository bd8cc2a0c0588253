import { Group, Table, Text } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { answerText } from '../../lib/answers';
import { formatPercent } from '../../lib/format';
import { probabilityRows } from './reviews';

/** The model's answer to one question, with its probabilities when it gave them. */
export function ModelAnswer({
  answer,
  selected,
  questionName,
}: {
  answer: Schemas['AnswerDto'] | undefined;
  /** The selected answer's probability, as the API stored it for the decision rule. */
  selected: number | undefined;
  questionName: string;
}) {
  if (!answer) {
    return (
      <Text size="sm" c="dimmed">
        The model gave no answer (the judgment failed).
      </Text>
    );
  }
  const rows = probabilityRows(answer);
  return (
    <>
      <Group gap="xs">
        <Text size="sm">Model answer:</Text>
        <Text size="sm" fw={700}>
          {answerText(answer)}
        </Text>
        {selected !== undefined && (
          <Text size="sm" c="dimmed">
            ({formatPercent(selected, 1)} sure)
          </Text>
        )}
      </Group>
      {rows.length > 1 && (
        <Table.ScrollContainer minWidth={220} maxHeight={240}>
          <Table withTableBorder verticalSpacing={4} fz="sm">
            <Table.Caption>Probabilities the model gave for {questionName}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Answer</Table.Th>
                <Table.Th ta="right">Probability</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.value} fw={row.selected ? 700 : undefined}>
                  <Table.Td>{row.value}</Table.Td>
                  <Table.Td ta="right">{formatPercent(row.probability, 1)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
