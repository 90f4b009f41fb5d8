import { Admin, type Client } from '@weir/protocol';
import type { Kafka } from 'kafkajs';
import { pollUntil } from './group-fixtures';
import type { KcatRecord } from './kcat-clients';

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

/**
 * What a kafkajs consumer in a new group reads of `topic` from the beginning until it has seen
 * `lastOffset`: offset, key and value (null for a tombstone) of every record, as kcatRecords gives
 * them. `readUncommitted` is kafkajs's isolation switch (default read_committed).
 */
export async function kafkajsRecordsTo(
  kafka: Kafka,
  topic: string,
  lastOffset: number,
  options: { groupId: string; readUncommitted?: boolean },
): Promise<KcatRecord[]> {
  const consumer = kafka.consumer({
    groupId: options.groupId,
    readUncommitted: options.readUncommitted ?? false,
    maxWaitTimeInMs: 200,
  });
  const seen: KcatRecord[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        seen.push({
          offset: Number(message.offset),
          key: message.key!.toString(),
          value: message.value === null ? null : message.value.toString(),
        });
      },
    });
    await pollUntil(() => seen.some((record) => record.offset >= lastOffset), 'kafkajs to read to the end');
  } finally {
    await consumer.disconnect();
  }
  return seen;
}
