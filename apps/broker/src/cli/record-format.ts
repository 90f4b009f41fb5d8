import type { ConsumerRecord } from '@weir/protocol';
import { recordJson } from './record-json';

/** How `weir consume` prints records. */
export type OutputFormat = 'text' | 'json' | 'hex';

const TAB = Buffer.from('\t');
const NEWLINE = Buffer.from('\n');
/** What text output shows for a null key or value (a tombstone), as Kafka's console consumer does. */
const NULL_TEXT = Buffer.from('null');

/**
 * One consumed record as an output line. `text` writes the value's bytes as they are (they need not
 * be UTF-8); `hex` writes them as lowercase hex; with `printKey`, the key comes first, then a tab.
 * `json` always includes the key (see {@link recordJson}).
 */
export function formatRecord(record: ConsumerRecord, format: OutputFormat, printKey: boolean): Buffer {
  if (format === 'json') return Buffer.from(`${recordJson(record)}\n`, 'utf8');
  const show = (bytes: Buffer | null): Buffer => {
    if (bytes === null) return NULL_TEXT;
    return format === 'hex' ? Buffer.from(bytes.toString('hex'), 'latin1') : bytes;
  };
  const parts = printKey
    ? [show(record.key), TAB, show(record.value), NEWLINE]
    : [show(record.value), NEWLINE];
  return Buffer.concat(parts);
}
