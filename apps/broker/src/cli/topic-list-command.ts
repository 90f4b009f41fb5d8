import type { Writable } from 'node:stream';
import type { Admin } from '@weir/protocol';
import { formatTable } from './table';

/** `weir topic list`: the topics, sorted by name, with their partition counts. */
export async function topicListCommand(
  admin: Admin,
  options: { includeInternal: boolean },
  out: { stdout: Writable },
): Promise<undefined> {
  const names = await admin.listTopics({ includeInternal: options.includeInternal });
  const described = names.length === 0 ? [] : await admin.describeTopics(names);
  const rows = described.map((topic) => [topic.name, String(topic.partitions.length)]);
  out.stdout.write(formatTable(['NAME', 'PARTITIONS'], rows));
}
