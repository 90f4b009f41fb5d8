import type { Writable } from 'node:stream';
import type { Admin, ConfigEntry } from '@weir/protocol';
import { formatTable } from './table';
import { type CleanerStateSource, cleanerStateText } from './topic-cleaner-state';

/**
 * `weir topic describe`: each partition's leader, replicas, in-sync replicas and log start/end
 * offsets, then the configs that differ from the defaults (the rest would bury them). For a
 * compacted topic, then the log cleaner's state of each replica when `cleaner` can read it (the
 * internal listener), else how to see it.
 */
export async function topicDescribeCommand(
  admin: Admin,
  options: { name: string; cleaner?: CleanerStateSource },
  out: { stdout: Writable },
): Promise<undefined> {
  const [topic] = await admin.describeTopics([options.name]);
  if (topic === undefined) return;
  const [offsets, [configs]] = await Promise.all([
    admin.topicOffsets(options.name),
    admin.describeConfigs([{ type: 'topic', name: options.name }]),
  ]);
  const rangeOf = new Map(offsets.map((range) => [range.partition, range]));
  const nodes = (ids: readonly number[]): string => (ids.length === 0 ? '-' : ids.join(','));
  const rows = topic.partitions.map((partition) => [
    String(partition.partition),
    partition.leaderId < 0 ? 'none' : String(partition.leaderId),
    nodes(partition.replicaNodes),
    nodes(partition.isrNodes),
    String(rangeOf.get(partition.partition)?.earliest ?? '?'),
    String(rangeOf.get(partition.partition)?.latest ?? '?'),
  ]);
  out.stdout.write(
    `Topic: ${topic.name}  Partitions: ${topic.partitions.length}${topic.isInternal ? '  (internal)' : ''}\n`,
  );
  out.stdout.write(formatTable(['PARTITION', 'LEADER', 'REPLICAS', 'ISR', 'LOG-START', 'LOG-END'], rows));
  const changed = (configs?.configs ?? []).filter((entry) => !entry.isDefault);
  if (changed.length === 0) out.stdout.write('Configs: all default\n');
  else {
    out.stdout.write('Configs (not default):\n');
    for (const entry of changed) out.stdout.write(`  ${entry.name}=${configValue(entry)}\n`);
  }
  const policy = configs?.configs.find((entry) => entry.name === 'cleanup.policy')?.value ?? '';
  if (!policy.split(',').includes('compact')) return;
  if (options.cleaner === undefined) {
    out.stdout.write(
      'Log cleaner: give --internal <host:port> to read its state from the internal listener\n',
    );
    return;
  }
  const brokerIds = topic.partitions.flatMap((partition) => partition.replicaNodes);
  out.stdout.write(cleanerStateText(await options.cleaner(topic.name, brokerIds)));
}

function configValue(entry: ConfigEntry): string {
  if (entry.isSensitive) return '(sensitive)';
  return entry.value ?? '(unset)';
}
