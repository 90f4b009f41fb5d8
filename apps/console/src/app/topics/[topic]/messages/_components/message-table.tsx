import {
  Badge,
  Button,
  ByteSize,
  Count,
  DataTable,
  type DataTableColumn,
  EmptyState,
  Timestamp,
} from '@weir/ui';
import { useMemo, useRef } from 'react';
import type { MessageRow } from '../../../../../server/api/schemas/messages';
import { type DecodeMode, previewPayload } from './decode-payload';

type MessageTableProps = {
  rows: readonly MessageRow[];
  openKey: string;
  onOpen: (key: string) => void;
  running: boolean;
  /**
   * A record is open beside the table: the timestamp, header count and size, which the record
   * shows, make room for it, and the key preview narrows.
   */
  compact?: boolean;
  /** With `schema`, the previews show the schema-decoded JSON. */
  mode?: DecodeMode;
  /** Replaces the search's empty-state title (the live tail waits rather than searches). */
  emptyTitle?: string;
};

/** `partition:offset`, the id of a record within its topic. */
export function recordKey(row: Pick<MessageRow, 'partition' | 'offset'>): string {
  return `${row.partition}:${row.offset}`;
}

/** What each transaction status means to a reader, for the chips' titles and the record panel. */
export const TRANSACTION_STATUS_TEXT: Record<MessageRow['transaction'], string> = {
  none: 'Not written in a transaction.',
  committed: 'Written in a transaction that committed: read_committed consumers see it.',
  aborted: 'Written in a transaction that was aborted: read_committed consumers never see it.',
  open: 'Written in a transaction that is still open: read_committed consumers see nothing from here on in this partition until it commits or aborts.',
  unknown: 'Written in a transaction; the broker does not say whether it committed.',
};

/**
 * A record's kind: a record of an aborted transaction (struck through), of a still-open one, of a
 * committed one, a transaction marker (only from brokers older than WeirScanRecords v2, which
 * return them), or nothing for a plain record.
 */
export function RecordKindBadge({
  row,
}: {
  row: Pick<MessageRow, 'control' | 'controlType' | 'transactional' | 'transaction'>;
}) {
  if (row.transaction === 'aborted') {
    return (
      <Badge tone="danger" className="line-through" title={TRANSACTION_STATUS_TEXT.aborted}>
        aborted
      </Badge>
    );
  }
  if (row.transaction === 'open') {
    return (
      <Badge tone="warning" title={TRANSACTION_STATUS_TEXT.open}>
        open transaction
      </Badge>
    );
  }
  if (row.control) {
    return (
      <Badge
        tone={row.controlType === 'ABORT' ? 'danger' : row.controlType === 'COMMIT' ? 'success' : 'neutral'}
        title="A control record: the transaction marker written when a transaction ends. Consumers never receive it."
      >
        {row.controlType ?? 'UNKNOWN'} marker
      </Badge>
    );
  }
  if (row.transactional) {
    return (
      <Badge tone="accent" title={TRANSACTION_STATUS_TEXT[row.transaction]}>
        transactional
      </Badge>
    );
  }
  return null;
}

const COLUMNS_THE_RECORD_SHOWS = new Set(['timestamp', 'headers', 'size']);

function recordSize(row: MessageRow): number {
  return (row.key?.sizeBytes ?? 0) + (row.value?.sizeBytes ?? 0);
}

/** The records found, newest search first; a row's button opens it in the viewer below. */
export function MessageTable({
  rows,
  openKey,
  onOpen,
  running,
  compact,
  emptyTitle,
  mode,
}: MessageTableProps) {
  // The columns are kept while the open record, the layout and the decoder stay the same, so the
  // table's memoised rows (DataTable) re-render only when new rows arrive: a live tail prepends
  // rows several times a second to up to a thousand. The latest `onOpen` is read at click time,
  // so callers may pass a new function on every render.
  const onOpenRef = useRef(onOpen);
  onOpenRef.current = onOpen;
  const columns = useMemo(
    () => messageColumns(openKey, (key) => onOpenRef.current(key), compact, mode),
    [openKey, compact, mode],
  );
  return (
    <DataTable
      label="Messages"
      columns={columns}
      rows={rows}
      rowKey={recordKey}
      maxHeightClassName="max-h-[55dvh]"
      empty={
        <EmptyState title={emptyTitle ?? (running ? 'Searching…' : 'No records on this page')}>
          {running || emptyTitle !== undefined
            ? null
            : 'Change the start position or the filters, or go to the next page.'}
        </EmptyState>
      }
    />
  );
}

function messageColumns(
  openKey: string,
  onOpen: (key: string) => void,
  compact: boolean | undefined,
  mode: DecodeMode | undefined,
): readonly DataTableColumn<MessageRow>[] {
  const allColumns: readonly DataTableColumn<MessageRow>[] = [
    { id: 'partition', header: 'Partition', align: 'right', cell: (row) => <Count value={row.partition} /> },
    { id: 'offset', header: 'Offset', align: 'right', cell: (row) => <Count value={row.offset} /> },
    { id: 'timestamp', header: 'Timestamp', cell: (row) => <Timestamp epochMs={row.timestampMs} /> },
    { id: 'kind', header: 'Kind', cell: (row) => <RecordKindBadge row={row} /> },
    {
      id: 'key',
      header: 'Key',
      className: 'max-w-48 truncate font-mono text-xs',
      cell: (row) =>
        row.control ? (
          <span className="text-zinc-500 dark:text-zinc-400">—</span>
        ) : (
          previewPayload(row.key, 60, mode)
        ),
    },
    {
      id: 'value',
      header: 'Value',
      // Zero max width with full width: the value takes the room the other columns leave and is
      // cut with an ellipsis, so the table never outgrows its card.
      className: 'w-full max-w-0 truncate font-mono text-xs',
      cell: (row) =>
        row.control ? (
          <span className="font-sans text-zinc-500 italic dark:text-zinc-400">
            transaction{' '}
            {row.controlType === 'ABORT' ? 'aborted' : row.controlType === 'COMMIT' ? 'committed' : 'marker'}{' '}
            (producer {row.producerId})
          </span>
        ) : (
          previewPayload(row.value, 120, mode)
        ),
    },
    { id: 'headers', header: 'Headers', align: 'right', cell: (row) => <Count value={row.headers.length} /> },
    { id: 'size', header: 'Size', align: 'right', cell: (row) => <ByteSize bytes={recordSize(row)} /> },
    {
      id: 'open',
      header: 'Record',
      align: 'right',
      cell: (row) => {
        const key = recordKey(row);
        return (
          <Button
            size="sm"
            variant="ghost"
            aria-pressed={openKey === key}
            aria-label={`Open record ${key}`}
            onClick={() => onOpen(openKey === key ? '' : key)}
          >
            {openKey === key ? 'Close' : 'Open'}
          </Button>
        );
      },
    },
  ];
  return compact
    ? allColumns
        .filter((column) => !COLUMNS_THE_RECORD_SHOWS.has(column.id))
        .map((column) =>
          column.id === 'key' ? { ...column, className: 'max-w-32 truncate font-mono text-xs' } : column,
        )
    : allColumns;
}
