import { Table, type TableProps, type TableTdProps, type TableThProps } from '@mantine/core';
import type { Key, ReactNode } from 'react';

/** One column of a `DataTable`: its header and, per row, its cell. */
export interface Column<T> {
  header: ReactNode;
  cell: (row: T, index: number) => ReactNode;
  /** The cell names its row: a `th scope="row"` instead of a `td`. */
  rowHeader?: boolean;
  headerProps?: TableThProps;
  cellProps?: TableTdProps | ((row: T, index: number) => TableTdProps);
}

/** A row's React key: its `id` unless told otherwise (rows without an `id` must say). */
type RowKey<T> = T extends { id: Key } ? { rowKey?: (row: T) => Key } : { rowKey: (row: T) => Key };

type Props<T> = Omit<TableProps, 'children' | 'data'> &
  RowKey<T> & {
    rows: readonly T[];
    columns: readonly Column<T>[];
    /** Below this width the table scrolls sideways; without it there is no scroll box. */
    minWidth?: number;
    /**
     * Names the scroll box and makes it a focusable region, so keyboard users can scroll a table
     * that holds no link or button.
     */
    label?: string;
    caption?: ReactNode;
    /** Shown instead of the table when there are no rows. */
    empty?: ReactNode;
  };

/** The app's data table: column headers with `scope="col"`, one row per item, scrolling on narrow screens. */
export function DataTable<T>({
  rows,
  columns,
  rowKey = (row) => (row as { id: Key }).id,
  minWidth,
  label,
  caption,
  empty,
  verticalSpacing = 'sm',
  ...tableProps
}: Props<T>) {
  if (!rows.length && empty !== undefined) return <>{empty}</>;
  const table = (
    <Table verticalSpacing={verticalSpacing} {...tableProps}>
      {caption !== undefined && <Table.Caption>{caption}</Table.Caption>}
      <Table.Thead>
        <Table.Tr>
          {columns.map((column, index) => (
            <Table.Th key={index} scope="col" {...column.headerProps}>
              {column.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row, rowIndex) => (
          <Table.Tr key={rowKey(row)}>
            {columns.map((column, index) => {
              const props =
                typeof column.cellProps === 'function' ? column.cellProps(row, rowIndex) : column.cellProps;
              return column.rowHeader ? (
                <Table.Th key={index} scope="row" {...(props as TableThProps)}>
                  {column.cell(row, rowIndex)}
                </Table.Th>
              ) : (
                <Table.Td key={index} {...props}>
                  {column.cell(row, rowIndex)}
                </Table.Td>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  if (minWidth === undefined) return table;
  return label ? (
    <Table.ScrollContainer minWidth={minWidth} type="native" tabIndex={0} role="region" aria-label={label}>
      {table}
    </Table.ScrollContainer>
  ) : (
    <Table.ScrollContainer minWidth={minWidth}>{table}</Table.ScrollContainer>
  );
}
