import type { Schemas } from '../../api/client';
import { DataTable } from '../../ui/DataTable';

interface Props {
  questionName: string;
  confusion: Schemas['ConfusionDto'];
}

/** The confusion matrix: rows are the model's answers, columns the reviewers' labels. */
export function ConfusionTable({ questionName, confusion }: Props) {
  const { categories, matrix } = confusion;
  const agreed = (row: number, column: number) => row === column && Boolean(matrix[row]?.[column]);
  return (
    <DataTable
      rows={categories}
      rowKey={(model) => model}
      minWidth={Math.max(280, 120 + categories.length * 80)}
      withTableBorder
      withColumnBorders
      verticalSpacing={4}
      fz="sm"
      w="auto"
      caption={
        <>
          Confusion matrix for {questionName}: rows are the model&apos;s answer, columns the reviewer&apos;s
          label; the diagonal is agreement.
        </>
      }
      columns={[
        { header: 'Model \\ Label', rowHeader: true, cell: (model) => model },
        ...categories.map((label, column) => ({
          header: label,
          headerProps: { ta: 'right' as const },
          cellProps: (_: string, row: number) => ({
            ta: 'right' as const,
            fw: row === column ? 700 : undefined,
            bg: agreed(row, column) ? 'var(--mantine-color-green-light)' : undefined,
          }),
          cell: (_: string, row: number) => matrix[row]?.[column] ?? 0,
        })),
      ]}
    />
  );
}
