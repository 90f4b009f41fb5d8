import type { Writable } from 'node:stream';
import type { Admin } from '@weir/protocol';
import { formatTable } from './table';

/**
 * `weir offsets`: each partition's earliest (log start) and latest (next to be written) offset,
 * and with a timestamp, the first offset at or after it ("-" when no record is that recent).
 */
export async function offsetsCommand(
  admin: Admin,
  options: { topic: string; timestampMs?: number },
  out: { stdout: Writable },
): Promise<undefined> {
  const ranges = await admin.topicOffsets(options.topic);
  const { timestampMs } = options;
  const atTime =
    timestampMs === undefined
      ? undefined
      : await admin.listOffsets(
          ranges.map((range) => ({
            topic: options.topic,
            partition: range.partition,
            spec: { timestampMs },
          })),
        );
  const header = ['PARTITION', 'EARLIEST', 'LATEST', ...(atTime ? [`AT ${timestampMs}`] : [])];
  const rows = ranges.map((range, index) => {
    const row = [String(range.partition), String(range.earliest), String(range.latest)];
    if (atTime) {
      const offset = atTime[index]!.offset;
      row.push(offset < 0n ? '-' : String(offset));
    }
    return row;
  });
  out.stdout.write(formatTable(header, rows));
}
