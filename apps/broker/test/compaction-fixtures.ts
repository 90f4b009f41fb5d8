import { Admin, type Client } from '@weir/protocol';

/**
 * A one-partition compacted topic the broker's cleaner takes up at once: segments of 1 KiB close
 * after a few batches, and any dirty share is enough for a clean. `configs` adds to or overrides
 * these (delete.retention.ms, min.compaction.lag.ms, …).
 */
export async function createCompactedTopic(
  client: Client,
  name: string,
  configs: Readonly<Record<string, string>> = {},
): Promise<void> {
  await new Admin(client).createTopics([
    {
      name,
      partitions: 1,
      replicationFactor: 1,
      configs: {
        'cleanup.policy': 'compact',
        'segment.bytes': '1024',
        'min.cleanable.dirty.ratio': '0.01',
        ...configs,
      },
    },
  ]);
}
