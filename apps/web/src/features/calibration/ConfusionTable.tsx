import { Table } from '@mantine/core';
import type { Schemas } from '../../api/client';

interface Props {
  questionName: string;
  confusion: Schemas['ConfusionDto'];
}

/** The confusion matrix: rows are the model's answers, columns the reviewers' labels. */
export function ConfusionTable({ questionName, confusion }: Props) {
  const { categories, matrix } = confusion;
  return (
    <Table.ScrollContainer minWidth={Math.max(280, 120 + categories.length * 80)}>
      <Table withTableBorder withColumnBorders verticalSpacing={4} fz="sm" w="auto">
        <Table.Caption>
          Confusion matrix for {questionName}: rows are the model&apos;s answer, columns the reviewer&apos;s
          label; the diagonal is agreement.
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Model \ Label</Table.Th>
            {categories.map((category) => (
              <Table.Th key={category} scope="col" ta="right">
                {category}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {categories.map((model, row) => (
            <Table.Tr key={model}>
              <Table.Th scope="row">{model}</Table.Th>
              {categories.map((label, column) => (
                <Table.Td
                  key={label}
                  ta="right"
                  fw={row === column ? 700 : undefined}
                  bg={
                    row === column && matrix[row]?.[column] ? 'var(--mantine-color-green-light)' : undefined
                  }
                >
                  {matrix[row]?.[column] ?? 0}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
