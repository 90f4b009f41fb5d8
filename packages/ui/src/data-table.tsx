import { memo, type ReactNode } from 'react';
import { classNames } from './class-names';

export type SortDirection = 'asc' | 'desc';

export type DataTableColumn<Row> = {
  id: string;
  header: string;
  /** Numbers are right-aligned so their digits line up. */
  align?: 'left' | 'right';
  /** Sortable columns render their header as a button that asks for this column. */
  sortable?: boolean;
  cell: (row: Row) => ReactNode;
  className?: string;
};

type DataTableProps<Row> = {
  /** Names the table for assistive technology and tests. */
  label: string;
  columns: readonly DataTableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  sort?: { column: string; direction: SortDirection } | undefined;
  onSortChange?: (column: string, direction: SortDirection) => void;
  /** Rendered in place of the body when there are no rows. */
  empty?: ReactNode;
  /** Caps the height and scrolls inside, keeping the header in view. */
  maxHeightClassName?: string;
};

/**
 * A dense table with a sticky header. Sorting is controlled (the page decides, usually on the
 * server), and the sorted header carries `aria-sort` so the state is announced and testable.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { label, columns, rows, rowKey, sort, onSortChange, empty, maxHeightClassName } = props;
  // The box scrolls when the table outgrows it; tables without links or buttons in their rows
  // would leave keyboard users unable to scroll it, so the box itself takes focus (axe-core
  // scrollable-region-focusable). It has no role: the table inside carries the name.
  return (
    <div
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be focusable for keyboard scrolling (WCAG 2.1.1).
      tabIndex={0}
      className={classNames(
        'overflow-auto rounded-lg border border-zinc-200 focus-visible:outline-2 focus-visible:outline-teal-600 dark:border-zinc-800',
        maxHeightClassName ?? 'max-h-[70dvh]',
      )}
    >
      <table aria-label={label} className="w-full border-collapse text-sm">
        <thead className="sticky top-0 z-[1] bg-zinc-50 dark:bg-zinc-900">
          <tr>
            {columns.map((column) => (
              <HeaderCell key={column.id} column={column} sort={sort} onSortChange={onSortChange} />
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 bg-white dark:divide-zinc-800/70 dark:bg-zinc-950">
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-3 py-8 text-center text-zinc-500 dark:text-zinc-400">
                {empty ?? 'Nothing to show.'}
              </td>
            </tr>
          ) : (
            rows.map((row) => <DataRow key={rowKey(row)} row={row} columns={columns} />)
          )}
        </tbody>
      </table>
    </div>
  );
}

type DataRowProps<Row> = { row: Row; columns: readonly DataTableColumn<Row>[] };

/**
 * One body row. It is memoised on the row and the column list, so a table that keeps its columns
 * (the live tail's, which prepends a few rows to a thousand several times a second) renders only
 * the rows that are new rather than every row on each update.
 */
const DataRow = memo(function DataRow<Row>({ row, columns }: DataRowProps<Row>) {
  return (
    <tr className="hover:bg-zinc-50 dark:hover:bg-zinc-900/60">
      {columns.map((column) => (
        <td
          key={column.id}
          className={classNames(
            'whitespace-nowrap px-3 py-1.5 align-top',
            column.align === 'right' && 'text-right tabular-nums',
            column.className,
          )}
        >
          {column.cell(row)}
        </td>
      ))}
    </tr>
  );
}) as <Row>(props: DataRowProps<Row>) => ReactNode;

type HeaderCellProps<Row> = {
  column: DataTableColumn<Row>;
  sort: DataTableProps<Row>['sort'];
  onSortChange: DataTableProps<Row>['onSortChange'];
};

function HeaderCell<Row>({ column, sort, onSortChange }: HeaderCellProps<Row>) {
  const sorted = sort?.column === column.id ? sort.direction : undefined;
  const ariaSort = sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined;
  const className = classNames(
    'whitespace-nowrap border-zinc-200 border-b px-3 py-2 font-medium text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400',
    column.align === 'right' ? 'text-right' : 'text-left',
  );
  if (!column.sortable || !onSortChange) {
    return (
      <th scope="col" className={className}>
        {column.header}
      </th>
    );
  }
  return (
    <th scope="col" aria-sort={ariaSort} className={className}>
      <button
        type="button"
        onClick={() => onSortChange(column.id, sorted === 'asc' ? 'desc' : 'asc')}
        className="inline-flex items-center gap-1 hover:text-zinc-900 dark:hover:text-zinc-100"
      >
        {column.header}
        <span aria-hidden="true" className="text-[10px]">
          {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}
