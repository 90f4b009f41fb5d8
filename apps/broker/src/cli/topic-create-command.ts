import type { Writable } from 'node:stream';
import type { Admin } from '@weir/protocol';
import { configRecord } from './config-pairs';

export interface TopicCreateOptions {
  name: string;
  /** Default: the broker's `num.partitions`. */
  partitions?: number;
  /** Default: the broker's `default.replication.factor`. */
  replicationFactor?: number;
  configs: readonly [string, string][];
  validateOnly: boolean;
}

/** `weir topic create`: creates a topic (or, with `--validate-only`, only checks that it could be). */
export async function topicCreateCommand(
  admin: Admin,
  options: TopicCreateOptions,
  out: { stdout: Writable },
): Promise<undefined> {
  const configs = configRecord('--config', options.configs);
  await admin.createTopics(
    [
      {
        name: options.name,
        partitions: options.partitions,
        replicationFactor: options.replicationFactor,
        configs,
      },
    ],
    { validateOnly: options.validateOnly },
  );
  if (options.validateOnly) {
    out.stdout.write(`Topic "${options.name}" can be created (validate only: nothing was changed).\n`);
    return;
  }
  // The broker may have chosen the partition count and replication factor, so report what it made.
  const [described] = await admin.describeTopics([options.name]);
  const replicas = described?.partitions[0]?.replicaNodes.length ?? '?';
  out.stdout.write(
    `Created topic "${options.name}" with ${described?.partitions.length ?? '?'} partition(s) of ${replicas} replica(s).\n`,
  );
}
