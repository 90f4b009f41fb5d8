import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin, Client, Producer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterEach, describe, expect, it } from 'vitest';
import { pollUntil } from './group-fixtures';
import { offsetsTopicRecords } from './offsets-commit-load';

/**
 * `__consumer_offsets` compacts (issue #19 item 5): a group committing the same partition over and
 * over leaves one record for it once the cleaner has run, and a restarted broker replays what is
 * left to the same committed offset.
 */

const COMMITS = 150;
const OVERRIDES = { log: { cleaner: { backoffMs: 100 } }, groups: { offsetsTopicPartitions: 1 } } as const;

describe('the internal topics compact', () => {
  let dataDir: string | undefined;
  let broker: RunningBroker | undefined;

  afterEach(async () => {
    await broker?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('__consumer_offsets keeps the latest commit of a partition, and a restart replays it', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'weir-offsets-compaction-'));
    broker = await startBroker(OVERRIDES, dataDir);
    const client = new Client({ bootstrapServers: [broker.bootstrap] });
    try {
      const admin = new Admin(client);
      await admin.createTopics([{ name: 'orders', partitions: 1, replicationFactor: 1 }]);
      const producer = new Producer(client);
      await producer.send({
        topic: 'orders',
        messages: Array.from({ length: COMMITS }, (_, index) => ({ partition: 0, value: `o${index}` })),
      });
      await producer.close();
      // The first commit creates the topic, compacted; small segments let the cleaner see closed ones.
      await admin.resetOffsets('billing', { offset: 0 }, { topics: ['orders'] });
      const [described] = await admin.describeConfigs([{ type: 'topic', name: '__consumer_offsets' }]);
      expect(described!.configs.find((entry) => entry.name === 'cleanup.policy')?.value).toBe('compact');
      await admin.alterConfigs([
        {
          type: 'topic',
          name: '__consumer_offsets',
          configs: {
            'cleanup.policy': 'compact',
            'retention.ms': '-1',
            'segment.bytes': '1024',
            'min.cleanable.dirty.ratio': '0.01',
            'max.message.bytes': String(16 * 1024 * 1024),
          },
        },
      ]);
      for (let offset = 1; offset <= COMMITS; offset++) {
        await admin.resetOffsets('billing', { offset }, { topics: ['orders'] });
      }
      await pollUntil(
        async () => (await offsetsTopicRecords(broker!.bootstrap)) < COMMITS / 2,
        'the cleaner to remove superseded commits',
      );
    } finally {
      await client.close();
    }

    await broker.stop();
    broker = await startBroker(OVERRIDES, dataDir);
    const restarted = new Client({ bootstrapServers: [broker.bootstrap] });
    try {
      const committed = await new Admin(restarted).fetchOffsets('billing');
      expect(
        committed.map(({ topic, partition, offset }) => ({ topic, partition, offset: Number(offset) })),
      ).toEqual([{ topic: 'orders', partition: 0, offset: COMMITS }]);
    } finally {
      await restarted.close();
    }
  }, 120_000);
});
