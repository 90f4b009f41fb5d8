/** A column of a printed table: its title and whether its cells are right-aligned (numbers). */
export interface Column {
  title: string;
  alignRight?: boolean;
}

/** Formats rows as a fixed-width text table with a header rule. */
export function formatTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((column, index) =>
    Math.max(column.title.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const formatRow = (cells: readonly string[]): string =>
    cells
      .map((cell, index) =>
        columns[index]?.alignRight ? cell.padStart(widths[index]!) : cell.padEnd(widths[index]!),
      )
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [formatRow(columns.map((column) => column.title)), rule, ...rows.map(formatRow)].join('\n');
}

/** An integer with thousands separators. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** A rate with one decimal. */
export function formatRate(value: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}
