import type { Writable } from 'node:stream';
import type { Admin, IncrementalAlterConfigsRequest } from '@weir/protocol';
import { configRecord } from './config-pairs';
import { UsageError } from './usage-error';

export interface TopicAlterOptions {
  name: string;
  configs: readonly [string, string][];
  deleteConfigs: readonly string[];
  /** The new partition count (it can only grow). */
  partitions?: number;
}

/**
 * `weir topic alter`: sets and deletes single configs (IncrementalAlterConfigs, so configs not
 * named keep their values) and raises the partition count. Configs change first: a refused
 * config then leaves the partitions untouched, and the whole command can simply be run again.
 */
export async function topicAlterCommand(
  admin: Admin,
  options: TopicAlterOptions,
  out: { stdout: Writable },
): Promise<undefined> {
  const set = configRecord('--config', options.configs);
  const changes: IncrementalAlterConfigsRequest['changes'][number][] = [];
  for (const [name, value] of Object.entries(set)) changes.push({ name, operation: 'set', value });
  for (const name of new Set(options.deleteConfigs)) {
    if (Object.hasOwn(set, name))
      throw new UsageError(`--delete-config: "${name}" is also set with --config`);
    changes.push({ name, operation: 'delete' });
  }
  if (changes.length === 0 && options.partitions === undefined) {
    throw new UsageError('nothing to change: give --config, --delete-config or --partitions');
  }
  if (changes.length > 0) {
    await admin.incrementalAlterConfigs([{ type: 'topic', name: options.name, changes }]);
    for (const change of changes) {
      out.stdout.write(
        change.operation === 'set'
          ? `Set ${change.name}=${change.value} on topic "${options.name}".\n`
          : `Deleted ${change.name} from topic "${options.name}" (back to the default).\n`,
      );
    }
  }
  if (options.partitions !== undefined) {
    await admin.createPartitions([{ topic: options.name, count: options.partitions }]);
    out.stdout.write(`Topic "${options.name}" now has ${options.partitions} partitions.\n`);
  }
}
