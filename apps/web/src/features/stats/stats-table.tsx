import type { ReactNode } from 'react';

interface StatsTableProps<Row> {
  /** The disclosure's text ("Show … as a table"). */
  summary: string;
  caption: string;
  /** The column headings; the first heads the rows' header cells. */
  columns: readonly string[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** A row's cells in column order: its header cell first. */
  cells: (row: Row, index: number) => readonly ReactNode[];
}

/** A chart's numbers as a table, folded away behind a disclosure: one row a day or month, headed by its first cell. */
export function StatsTable<Row>({ summary, caption, columns, rows, rowKey, cells }: StatsTableProps<Row>) {
  return (
    <details>
      <summary>{summary}</summary>
      <table className="stats-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const [header, ...data] = cells(row, index);
            return (
              <tr key={rowKey(row)}>
                <th scope="row">{header}</th>
                {data.map((cell, column) => (
                  <td key={columns[column + 1]}>{cell}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </details>
  );
}
