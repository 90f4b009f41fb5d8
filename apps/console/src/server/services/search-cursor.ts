import type { RecordFilter, RecordFilterField, RecordFilterOperator } from '@weir/protocol';

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

/** Parses `<field>:<operator>:<value>`; the value may itself contain colons. */
export function parseRecordFilter(text: string): RecordFilter {
  const first = text.indexOf(':');
  const second = text.indexOf(':', first + 1);
  if (first < 0 || second < 0) throw new RangeError(`filter "${text}" is not <field>:<operator>:<value>`);
  return {
    field: text.slice(0, first) as RecordFilterField,
    operator: text.slice(first + 1, second) as RecordFilterOperator,
    value: text.slice(second + 1),
  };
}

export function formatRecordFilter(filter: RecordFilter): string {
  return `${filter.field}:${filter.operator}:${filter.value}`;
}
