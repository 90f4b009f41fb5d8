import type { RecordFilter } from '@weir/protocol';
import { formatFilterText, parseFilterText } from '../api/schemas/record-filter-syntax';

/*
 * The text forms of message-search parameters that travel in URLs: cursors ("0:120,1:98") and
 * filters ("value:contains:timeout"). The zod schemas check their shape; these functions convert.
 */

/** Per partition, the next offset to read. Partitions in ascending order. */
export type Cursor = ReadonlyMap<number, bigint>;

export function encodeCursor(cursor: Cursor): string {
  return [...cursor]
    .sort(([left], [right]) => left - right)
    .map(([partition, offset]) => `${partition}:${offset}`)
    .join(',');
}

/** Parses a cursor; a partition listed twice is an error (the schema cannot see that). */
export function decodeCursor(text: string): Cursor {
  const cursor = new Map<number, bigint>();
  for (const pair of text.split(',')) {
    const [partitionText, offsetText] = pair.split(':');
    const partition = Number(partitionText);
    if (cursor.has(partition)) throw new RangeError(`cursor: partition ${partition} is listed twice`);
    cursor.set(partition, BigInt(offsetText!));
  }
  return new Map([...cursor].sort(([left], [right]) => left - right));
}

/** Parses `<field>:<operator>:<value>` (see record-filter-syntax.ts); the value may contain colons. */
export function parseRecordFilter(text: string): RecordFilter {
  return parseFilterText(text);
}

export function formatRecordFilter(filter: RecordFilter): string {
  return formatFilterText(filter);
}
