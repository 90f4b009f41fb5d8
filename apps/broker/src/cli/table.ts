/**
 * Formats rows as a plain-text table: a header row, columns left-aligned and separated by two
 * spaces, no trailing spaces. Plain text so it survives `grep`, `awk` and narrow terminals.
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[header, ...rows].map(line).join('\n')}\n`;
}
