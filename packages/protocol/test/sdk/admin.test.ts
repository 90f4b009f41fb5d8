import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Admin } from '../../src/client/admin';
import { AdminItemsError } from '../../src/client/admin-error';
import { Client } from '../../src/client/client';
import { Producer } from '../../src/client/producer';
import { ErrorCode } from '../../src/errors/error-codes';
import { WeirError } from '../../src/errors/weir-error';

let broker: RunningBroker;
let client: Client;
let admin: Admin;

beforeAll(async () => {
  broker = await startBroker({ topics: { autoCreateEnable: false, defaultPartitions: 2 } });
  client = new Client({
    bootstrapServers: [broker.bootstrap],
    retry: { maxAttempts: 3, initialBackoffMs: 10 },
  });
  admin = new Admin(client);
});
afterAll(async () => {
  await client.close();
  await broker.dispose();
});

async function failure(promise: Promise<unknown>): Promise<AdminItemsError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AdminItemsError);
  return error as AdminItemsError;
}

describe('Admin: topics', () => {
  it('creates topics with partitions, configs and the broker default; validateOnly creates nothing', async () => {
    await admin.createTopics([
      { name: 'admin-a', partitions: 3, configs: { 'retention.ms': '3600000' } },
      { name: 'admin-default' },
    ]);
    await admin.createTopics([{ name: 'admin-dry', partitions: 1 }], { validateOnly: true });
    const topics = await admin.listTopics();
    expect(topics).toEqual(expect.arrayContaining(['admin-a', 'admin-default']));
    expect(topics).not.toContain('admin-dry');
    const [a, byDefault] = await admin.describeTopics(['admin-a', 'admin-default']);
    expect(a!.partitions.map((partition) => partition.partition)).toEqual([0, 1, 2]);
    expect(a!.partitions[0]).toMatchObject({
      leaderId: 0,
      replicaNodes: [0],
      isrNodes: [0],
      offlineReplicas: [],
    });
    expect(byDefault!.partitions).toHaveLength(2);
    expect(a!.isInternal).toBe(false);
  });

  it('reports per-topic failures while the other topics are created', async () => {
    await admin.createTopics([{ name: 'admin-exists', partitions: 1 }]);
    const error = await failure(
      admin.createTopics([
        { name: 'admin-exists', partitions: 1 },
        { name: 'admin-fresh', partitions: 1 },
        { name: 'admin-rf', partitions: 1, replicationFactor: 3 },
      ]),
    );
    expect(error.code).toBe(ErrorCode.TOPIC_ALREADY_EXISTS);
    expect(error.operation).toBe('createTopics');
    expect(error.failures.map((item) => [item.item, item.error.code])).toEqual([
      ['admin-exists', ErrorCode.TOPIC_ALREADY_EXISTS],
      ['admin-rf', ErrorCode.INVALID_REPLICATION_FACTOR],
    ]);
    expect(await admin.listTopics()).toContain('admin-fresh');
  });

  it('describes an unknown topic as a per-item UNKNOWN_TOPIC_OR_PARTITION', async () => {
    const error = await failure(admin.describeTopics(['admin-a', 'admin-missing']));
    expect(error.failures).toHaveLength(1);
    expect(error.failures[0]).toMatchObject({ item: 'admin-missing' });
    expect(error.code).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  });

  it('adds partitions, and refuses to shrink', async () => {
    await admin.createTopics([{ name: 'admin-grow', partitions: 1 }]);
    await admin.createPartitions([{ topic: 'admin-grow', count: 4 }]);
    expect((await admin.describeTopics(['admin-grow']))[0]!.partitions).toHaveLength(4);
    const error = await failure(admin.createPartitions([{ topic: 'admin-grow', count: 2 }]));
    expect(error.code).toBe(ErrorCode.INVALID_PARTITIONS);
  });

  it('deletes topics, and reports unknown ones per item', async () => {
    await admin.createTopics([{ name: 'admin-doomed', partitions: 1 }]);
    await admin.deleteTopics(['admin-doomed']);
    expect(await admin.listTopics()).not.toContain('admin-doomed');
    const error = await failure(admin.deleteTopics(['admin-never']));
    expect(error.code).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  });

  it('refuses a list naming a topic twice', async () => {
    await expect(admin.createTopics([{ name: 'twice' }, { name: 'twice' }])).rejects.toThrow(RangeError);
  });

  it('describes the cluster', async () => {
    const cluster = await admin.describeCluster();
    expect(cluster.brokers).toEqual([{ nodeId: 0, host: '127.0.0.1', port: broker.port, rack: null }]);
    expect(cluster.controllerId).toBe(0);
    expect(typeof cluster.clusterId).toBe('string');
  });
});

describe('Admin: offsets and records', () => {
  beforeAll(async () => {
    await admin.createTopics([{ name: 'admin-offsets', partitions: 2 }]);
    const producer = new Producer(client);
    await producer.send({
      topic: 'admin-offsets',
      messages: [1000, 2000, 3000, 4000].map((timestampMs) => ({ value: 'v', partition: 0, timestampMs })),
    });
    await producer.close();
  });

  it('lists earliest, latest and by-time offsets', async () => {
    const offsets = await admin.listOffsets([
      { topic: 'admin-offsets', partition: 0, spec: 'latest' },
      { topic: 'admin-offsets', partition: 1, spec: 'earliest' },
    ]);
    expect(offsets.map((offset) => offset.offset)).toEqual([4n, 0n]);
    const [byTime] = await admin.listOffsets([
      { topic: 'admin-offsets', partition: 0, spec: { timestampMs: 2500 } },
    ]);
    expect(byTime).toEqual({ topic: 'admin-offsets', partition: 0, offset: 2n, timestampMs: 3000 });
    const [none] = await admin.listOffsets([
      { topic: 'admin-offsets', partition: 0, spec: { timestampMs: 9000 } },
    ]);
    expect(none!.offset).toBe(-1n);
    expect(await admin.topicOffsets('admin-offsets')).toEqual([
      { partition: 0, earliest: 0n, latest: 4n },
      { partition: 1, earliest: 0n, latest: 0n },
    ]);
  });

  it('reports unknown partitions per item', async () => {
    const error = await failure(
      admin.listOffsets([
        { topic: 'admin-offsets', partition: 0, spec: 'latest' },
        { topic: 'admin-offsets', partition: 9, spec: 'latest' },
        { topic: 'admin-nowhere', partition: 0, spec: 'latest' },
      ]),
    );
    expect(error.failures.map((item) => [item.item, item.error.code])).toEqual([
      ['admin-offsets-9', ErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
      ['admin-nowhere-0', ErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
    ]);
    await expect(admin.topicOffsets('admin-nowhere')).rejects.toMatchObject({
      code: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    });
  });

  it('deletes records below an offset and moves the log start', async () => {
    const [deleted] = await admin.deleteRecords([{ topic: 'admin-offsets', partition: 0, beforeOffset: 3n }]);
    expect(deleted).toEqual({ topic: 'admin-offsets', partition: 0, lowWatermark: 3n });
    const [earliest] = await admin.listOffsets([{ topic: 'admin-offsets', partition: 0, spec: 'earliest' }]);
    expect(earliest!.offset).toBe(3n);
    const error = await failure(
      admin.deleteRecords([{ topic: 'admin-offsets', partition: 0, beforeOffset: 99n }]),
    );
    expect(error.code).toBe(ErrorCode.OFFSET_OUT_OF_RANGE);
  });
});

describe('Admin: configs', () => {
  beforeAll(async () => {
    await admin.createTopics([
      { name: 'admin-configs', partitions: 1, configs: { 'retention.ms': '7200000' } },
    ]);
  });

  it('describes topic configs with their source', async () => {
    const [description] = await admin.describeConfigs([{ type: 'topic', name: 'admin-configs' }], {
      includeSynonyms: true,
    });
    const retention = description!.configs.find((entry) => entry.name === 'retention.ms')!;
    expect(retention).toMatchObject({ value: '7200000', source: 'topic', isDefault: false, readOnly: false });
    expect(retention.synonyms[0]).toEqual({ name: 'retention.ms', value: '7200000', source: 'topic' });
    const cleanup = description!.configs.find((entry) => entry.name === 'cleanup.policy')!;
    expect(cleanup).toMatchObject({ value: 'delete', source: 'default', isDefault: true });
  });

  it('describes only the keys asked for, and broker configs at that broker', async () => {
    const [topic, brokerConfigs] = await admin.describeConfigs([
      { type: 'topic', name: 'admin-configs', keys: ['retention.ms'] },
      { type: 'broker', name: '0' },
    ]);
    expect(topic!.configs.map((entry) => entry.name)).toEqual(['retention.ms']);
    expect(brokerConfigs!.configs.find((entry) => entry.name === 'broker.id')).toMatchObject({
      value: '0',
      readOnly: true,
    });
  });

  it('changes single keys with incrementalAlterConfigs', async () => {
    await admin.incrementalAlterConfigs([
      {
        type: 'topic',
        name: 'admin-configs',
        changes: [
          { name: 'retention.bytes', operation: 'set', value: '1048576' },
          { name: 'retention.ms', operation: 'delete' },
        ],
      },
    ]);
    const [description] = await admin.describeConfigs([
      { type: 'topic', name: 'admin-configs', keys: ['retention.bytes', 'retention.ms'] },
    ]);
    const byName = new Map(description!.configs.map((entry) => [entry.name, entry]));
    expect(byName.get('retention.bytes')).toMatchObject({ value: '1048576', source: 'topic' });
    expect(byName.get('retention.ms')).toMatchObject({ source: 'default', isDefault: true });
  });

  it('replaces the whole configuration with alterConfigs; validateOnly changes nothing', async () => {
    await admin.alterConfigs([{ type: 'topic', name: 'admin-configs', configs: { 'segment.ms': '600000' } }]);
    await admin.alterConfigs(
      [{ type: 'topic', name: 'admin-configs', configs: { 'segment.ms': '1200000' } }],
      {
        validateOnly: true,
      },
    );
    const [description] = await admin.describeConfigs([{ type: 'topic', name: 'admin-configs' }]);
    const overridden = description!.configs.filter((entry) => entry.source === 'topic');
    expect(overridden.map((entry) => [entry.name, entry.value])).toEqual([['segment.ms', '600000']]);
  });

  it('reports failures per resource', async () => {
    const error = await failure(
      admin.describeConfigs([
        { type: 'topic', name: 'admin-configs' },
        { type: 'topic', name: 'admin-no-such' },
      ]),
    );
    expect(error.failures.map((item) => [item.item, item.error.code])).toEqual([
      ['topic:admin-no-such', ErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
    ]);
    const invalid = await failure(
      admin.incrementalAlterConfigs([
        {
          type: 'topic',
          name: 'admin-configs',
          changes: [{ name: 'retention.ms', operation: 'set', value: 'soon' }],
        },
      ]),
    );
    expect(invalid.code).toBe(ErrorCode.INVALID_CONFIG);
    // The broker's message already starts with the code's summary; it is not repeated.
    expect(invalid.failures[0]!.error.message.match(/The configuration is not valid/g)).toHaveLength(1);
    const readOnly = await failure(
      admin.alterConfigs([{ type: 'broker', name: '0', configs: { 'num.partitions': '3' } }]),
    );
    expect(readOnly.failures[0]!.error).toBeInstanceOf(WeirError);
    expect(readOnly.failures[0]!.item).toBe('broker:0');
  });
});
