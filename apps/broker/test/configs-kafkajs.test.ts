import { AdminItemsError, ErrorCode, type WeirError } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { type Admin, ConfigResourceTypes, ConfigSource, Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPIC_CONFIGS } from '../src/topics/topic-configs';
import { clientSession, weirFailure } from './internal-fixtures';

const RETENTION_DEFAULT_MS = 3_600_000;

const brokerOverrides = {
  nodeId: 3,
  topics: { autoCreateEnable: false, defaultPartitions: 2 },
  log: { retentionMs: RETENTION_DEFAULT_MS },
};

function kafkaFor(running: RunningBroker): Kafka {
  return new Kafka({
    clientId: 'weir-configs-test',
    brokers: [running.bootstrap],
    logLevel: logLevel.NOTHING,
  });
}

async function withAdmin<T>(kafka: Kafka, run: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.disconnect();
  }
}

/** A topic's configs as kafkajs reports them, by name. */
async function topicConfigs(admin: Admin, topic: string, includeSynonyms = false) {
  const { resources } = await admin.describeConfigs({
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic }],
    includeSynonyms,
  });
  return new Map(resources[0]!.configEntries.map((entry) => [entry.configName, entry]));
}

async function setTopicConfigs(
  admin: Admin,
  topic: string,
  entries: Record<string, string>,
  validateOnly = false,
) {
  await admin.alterConfigs({
    validateOnly,
    resources: [
      {
        type: ConfigResourceTypes.TOPIC,
        name: topic,
        configEntries: Object.entries(entries).map(([name, value]) => ({ name, value })),
      },
    ],
  });
}

/** The broker's message for the one item an admin call failed for. */
function itemMessage(error: WeirError): string {
  return error instanceof AdminItemsError ? (error.failures[0]?.error.message ?? '') : error.message;
}

describe('topic and broker configs through the kafkajs admin client', () => {
  let running: RunningBroker;
  let kafka: Kafka;

  beforeAll(async () => {
    running = await startBroker(brokerOverrides);
    kafka = kafkaFor(running);
  });
  afterAll(async () => {
    await running.dispose();
  });

  it('describes every topic config with its broker-derived default', async () => {
    await withAdmin(kafka, async (admin) => {
      await admin.createTopics({ topics: [{ topic: 'defaults', numPartitions: 1 }] });
      const configs = await topicConfigs(admin, 'defaults', true);
      expect([...configs.keys()].sort()).toEqual(TOPIC_CONFIGS.map((definition) => definition.name).sort());
      expect(configs.get('retention.ms')).toMatchObject({
        configValue: String(RETENTION_DEFAULT_MS),
        configSource: ConfigSource.DEFAULT_CONFIG,
        isDefault: true,
        readOnly: false,
        isSensitive: false,
        configSynonyms: [
          {
            configName: 'log.retention.ms',
            configValue: String(RETENTION_DEFAULT_MS),
            configSource: ConfigSource.DEFAULT_CONFIG,
          },
        ],
      });
      expect(configs.get('cleanup.policy')?.configValue).toBe('delete');

      const { resources } = await admin.describeConfigs({
        resources: [
          { type: ConfigResourceTypes.TOPIC, name: 'defaults', configNames: ['segment.ms', 'nope'] },
        ],
        includeSynonyms: false,
      });
      expect(resources[0]!.configEntries.map((entry) => entry.configName)).toEqual(['segment.ms']);
      expect(resources[0]!.configEntries[0]!.configSynonyms).toEqual([]);
    });
  });

  it('creates __consumer_offsets on a standalone broker with one replica and min.insync.replicas 1', async () => {
    await withAdmin(kafka, async (admin) => {
      const metadata = await admin.fetchTopicMetadata({ topics: ['__consumer_offsets'] });
      const partitions = metadata.topics[0]!.partitions;
      expect(partitions.length).toBeGreaterThan(0);
      for (const partition of partitions) expect(partition.replicas).toEqual([3]);
      const configs = await topicConfigs(admin, '__consumer_offsets');
      expect(configs.get('min.insync.replicas')).toMatchObject({
        configValue: '1',
        configSource: ConfigSource.TOPIC_CONFIG,
      });
    });
  });

  it('reports an unknown topic as UNKNOWN_TOPIC_OR_PARTITION', async () => {
    await withAdmin(kafka, async (admin) => {
      await expect(topicConfigs(admin, 'no-such-topic')).rejects.toMatchObject({
        type: 'UNKNOWN_TOPIC_OR_PARTITION',
      });
    });
  });

  it('alters retention.ms and describes it as a dynamic topic config', async () => {
    await withAdmin(kafka, async (admin) => {
      await admin.createTopics({ topics: [{ topic: 'altered', numPartitions: 1 }] });
      await setTopicConfigs(admin, 'altered', { 'retention.ms': '60000' });
      const retention = (await topicConfigs(admin, 'altered', true)).get('retention.ms');
      expect(retention).toMatchObject({
        configValue: '60000',
        configSource: ConfigSource.TOPIC_CONFIG,
        isDefault: false,
        configSynonyms: [
          { configName: 'retention.ms', configValue: '60000', configSource: ConfigSource.TOPIC_CONFIG },
          {
            configName: 'log.retention.ms',
            configValue: String(RETENTION_DEFAULT_MS),
            configSource: ConfigSource.DEFAULT_CONFIG,
          },
        ],
      });
    });
  });

  it('replaces the whole override set: a config not listed goes back to its default', async () => {
    await withAdmin(kafka, async (admin) => {
      await admin.createTopics({ topics: [{ topic: 'replaced', numPartitions: 1 }] });
      await setTopicConfigs(admin, 'replaced', { 'retention.ms': '60000', 'segment.ms': '120000' });
      await setTopicConfigs(admin, 'replaced', { 'segment.ms': '180000' });
      const configs = await topicConfigs(admin, 'replaced');
      expect(configs.get('segment.ms')).toMatchObject({ configValue: '180000', isDefault: false });
      expect(configs.get('retention.ms')).toMatchObject({
        configValue: String(RETENTION_DEFAULT_MS),
        configSource: ConfigSource.DEFAULT_CONFIG,
      });
    });
  });

  it('refuses invalid values and unknown configs with INVALID_CONFIG and changes nothing', async () => {
    await withAdmin(kafka, async (admin) => {
      await admin.createTopics({ topics: [{ topic: 'invalid', numPartitions: 1 }] });
      await setTopicConfigs(admin, 'invalid', { 'retention.ms': '60000' });
      await expect(setTopicConfigs(admin, 'invalid', { 'retention.ms': 'soon' })).rejects.toMatchObject({
        type: 'INVALID_CONFIG',
      });
      await expect(setTopicConfigs(admin, 'invalid', { 'retention.msec': '1' })).rejects.toMatchObject({
        type: 'INVALID_CONFIG',
      });
      expect((await topicConfigs(admin, 'invalid')).get('retention.ms')?.configValue).toBe('60000');
    });
  });

  it('checks but applies nothing with validateOnly', async () => {
    await withAdmin(kafka, async (admin) => {
      await admin.createTopics({ topics: [{ topic: 'validate-only', numPartitions: 1 }] });
      await setTopicConfigs(admin, 'validate-only', { 'retention.ms': '60000' }, true);
      expect((await topicConfigs(admin, 'validate-only')).get('retention.ms')).toMatchObject({
        configValue: String(RETENTION_DEFAULT_MS),
        isDefault: true,
      });
      await expect(
        setTopicConfigs(admin, 'validate-only', { 'retention.ms': '-5' }, true),
      ).rejects.toMatchObject({ type: 'INVALID_CONFIG' });
    });
  });

  it('applies a lowered max.message.bytes to the live log', async () => {
    const topic = 'small-messages';
    await withAdmin(kafka, async (admin) => {
      await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
    });
    const producer = kafka.producer({ allowAutoTopicCreation: false, retry: { retries: 0 } });
    await producer.connect();
    try {
      const large = { value: 'x'.repeat(4096) };
      await producer.send({ topic, messages: [large] });
      await withAdmin(kafka, (admin) => setTopicConfigs(admin, topic, { 'max.message.bytes': '1024' }));
      await expect(producer.send({ topic, messages: [large] })).rejects.toMatchObject({
        type: 'MESSAGE_TOO_LARGE',
      });
      await producer.send({ topic, messages: [{ value: 'small' }] });
    } finally {
      await producer.disconnect();
    }
  });

  it('describes the timestamp limits, and applies altered ones to the live log', async () => {
    const topic = 'time-limits';
    await withAdmin(kafka, async (admin) => {
      await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
      const configs = await topicConfigs(admin, topic, true);
      for (const name of ['before', 'after', 'difference']) {
        // Kafka 3.x's defaults: Long.MAX, no limit, from the broker's log.message.timestamp.* configs.
        expect(configs.get(`message.timestamp.${name}.max.ms`)).toMatchObject({
          configValue: '9223372036854775807',
          configSource: ConfigSource.DEFAULT_CONFIG,
          configSynonyms: [
            {
              configName: `log.message.timestamp.${name}.max.ms`,
              configValue: '9223372036854775807',
              configSource: ConfigSource.DEFAULT_CONFIG,
            },
          ],
        });
      }
      await setTopicConfigs(admin, topic, {
        'message.timestamp.before.max.ms': '60000',
        'message.timestamp.after.max.ms': '60000',
      });
      const altered = await topicConfigs(admin, topic);
      expect(altered.get('message.timestamp.before.max.ms')).toMatchObject({
        configValue: '60000',
        configSource: ConfigSource.TOPIC_CONFIG,
      });
      await expect(
        setTopicConfigs(admin, topic, { 'message.timestamp.after.max.ms': '-1' }),
      ).rejects.toMatchObject({ type: 'INVALID_CONFIG' });
    });
    const producer = kafka.producer({ allowAutoTopicCreation: false, retry: { retries: 0 } });
    await producer.connect();
    try {
      const send = (timestampMs: number) =>
        producer.send({ topic, messages: [{ value: 'v', timestamp: String(timestampMs) }] });
      await expect(send(Date.now() - 3_600_000)).rejects.toMatchObject({ type: 'INVALID_TIMESTAMP' });
      await expect(send(Date.now() + 3_600_000)).rejects.toMatchObject({ type: 'INVALID_TIMESTAMP' });
      await send(Date.now());
      // Back to no limit: the old record is taken.
      await withAdmin(kafka, (admin) => setTopicConfigs(admin, topic, {}));
      await send(Date.now() - 3_600_000);
    } finally {
      await producer.disconnect();
    }
  });

  it('creates topics with configs and refuses unsupported ones', async () => {
    await withAdmin(kafka, async (admin) => {
      await admin.createTopics({
        topics: [
          { topic: 'created-with-configs', configEntries: [{ name: 'retention.ms', value: '90000' }] },
        ],
      });
      expect((await topicConfigs(admin, 'created-with-configs')).get('retention.ms')).toMatchObject({
        configValue: '90000',
        configSource: ConfigSource.TOPIC_CONFIG,
      });
      await expect(
        admin.createTopics({
          topics: [{ topic: 'uncompressed', configEntries: [{ name: 'compression.type', value: 'gzip' }] }],
        }),
      ).rejects.toMatchObject({ errors: [expect.objectContaining({ type: 'INVALID_CONFIG' })] });
      expect(await admin.listTopics()).not.toContain('uncompressed');
    });
  });

  it('creates a compacted topic with the cleaner settings and reads them back', async () => {
    await withAdmin(kafka, async (admin) => {
      const cleanerConfigs = {
        'cleanup.policy': 'compact,delete',
        'min.cleanable.dirty.ratio': '0.25',
        'min.compaction.lag.ms': '1000',
        'max.compaction.lag.ms': '60000',
        'delete.retention.ms': '5000',
      };
      await admin.createTopics({
        topics: [
          {
            topic: 'compacted',
            configEntries: Object.entries(cleanerConfigs).map(([name, value]) => ({ name, value })),
          },
        ],
      });
      const configs = await topicConfigs(admin, 'compacted');
      for (const [name, value] of Object.entries(cleanerConfigs)) {
        expect(configs.get(name), name).toMatchObject({
          configValue: value,
          configSource: ConfigSource.TOPIC_CONFIG,
        });
      }
      // Unset, it is Kafka's Long.MAX, as Kafka reports it.
      expect((await topicConfigs(admin, 'created-with-configs')).get('max.compaction.lag.ms')).toMatchObject({
        configValue: '9223372036854775807',
        configSource: ConfigSource.DEFAULT_CONFIG,
      });

      await setTopicConfigs(admin, 'compacted', { 'cleanup.policy': 'compact' });
      expect((await topicConfigs(admin, 'compacted')).get('cleanup.policy')?.configValue).toBe('compact');
    });
  });

  it('refuses bad cleaner settings with INVALID_CONFIG naming the config (SDK admin, which keeps the message)', async () => {
    const { client, admin } = clientSession(running);
    try {
      const refused: Array<[Record<string, string>, RegExp]> = [
        [{ 'min.cleanable.dirty.ratio': '1.5' }, /configuration min\.cleanable\.dirty\.ratio: /],
        [{ 'cleanup.policy': 'compact,foo' }, /value compact,foo for configuration cleanup\.policy: /],
        [
          { 'min.compaction.lag.ms': '2000', 'max.compaction.lag.ms': '1000' },
          /min\.compaction\.lag\.ms \(2000\) >/,
        ],
      ];
      for (const [configs, message] of refused) {
        const created = await weirFailure(admin.createTopics([{ name: 'badly-cleaned', configs }]));
        expect(created.code).toBe(ErrorCode.INVALID_CONFIG);
        expect(itemMessage(created)).toMatch(message);
        const altered = await weirFailure(
          admin.alterConfigs([{ type: 'topic', name: 'created-with-configs', configs }]),
        );
        expect(altered.code).toBe(ErrorCode.INVALID_CONFIG);
        expect(itemMessage(altered)).toMatch(message);
      }
      expect(await admin.listTopics()).not.toContain('badly-cleaned');
    } finally {
      await client.close();
    }
  });

  it('describes the broker configs as read-only static configs', async () => {
    await withAdmin(kafka, async (admin) => {
      const { resources } = await admin.describeConfigs({
        resources: [{ type: ConfigResourceTypes.BROKER, name: '3' }],
        includeSynonyms: false,
      });
      const entries = new Map(resources[0]!.configEntries.map((entry) => [entry.configName, entry]));
      expect(entries.get('broker.id')).toMatchObject({
        configValue: '3',
        readOnly: true,
        configSource: ConfigSource.STATIC_BROKER_CONFIG,
      });
      expect(entries.get('num.partitions')?.configValue).toBe('2');
      expect(entries.get('auto.create.topics.enable')?.configValue).toBe('false');
      expect(entries.get('log.retention.ms')?.configValue).toBe(String(RETENTION_DEFAULT_MS));
      expect(entries.get('message.max.bytes')?.configValue).toBe(String(1024 * 1024 + 12));
      // Left at its built-in value, so Kafka's DEFAULT_CONFIG.
      expect(entries.get('min.insync.replicas')).toMatchObject({
        configValue: '1',
        configSource: ConfigSource.DEFAULT_CONFIG,
        isDefault: true,
      });
      expect(entries.get('unclean.leader.election.enable')?.configValue).toBe('false');
      expect(entries.get('log.message.timestamp.type')?.configValue).toBe('CreateTime');
      expect(entries.get('log.message.timestamp.before.max.ms')).toMatchObject({
        configValue: '9223372036854775807',
        configSource: ConfigSource.DEFAULT_CONFIG,
      });
      expect(entries.get('log.message.timestamp.after.max.ms')?.configValue).toBe('9223372036854775807');
      expect(entries.get('replica.lag.time.max.ms')?.configValue).toBe('30000');
      expect(entries.get('default.replication.factor')?.configValue).toBe('1');
      expect(entries.get('offsets.topic.replication.factor')?.configValue).toBe('3');
      expect(entries.get('transaction.state.log.replication.factor')?.configValue).toBe('3');
      // Every config is static but the follower throttle, which reassignments set at runtime.
      expect(
        [...entries.values()].filter((entry) => !entry.readOnly).map((entry) => entry.configName),
      ).toEqual(['follower.replication.throttled.rate']);
      expect(entries.get('follower.replication.throttled.rate')).toMatchObject({
        configValue: '9223372036854775807',
        configSource: ConfigSource.DEFAULT_CONFIG,
      });
    });
  });

  it('sets the follower throttle for this broker at runtime, and refuses a bad rate', async () => {
    await withAdmin(kafka, async (admin) => {
      const throttle = async () => {
        const { resources } = await admin.describeConfigs({
          resources: [{ type: ConfigResourceTypes.BROKER, name: '3' }],
          includeSynonyms: false,
        });
        return resources[0]!.configEntries.find(
          (entry) => entry.configName === 'follower.replication.throttled.rate',
        );
      };
      const set = (name: string, value: string) =>
        admin.alterConfigs({
          validateOnly: false,
          resources: [
            {
              type: ConfigResourceTypes.BROKER,
              name,
              configEntries: [{ name: 'follower.replication.throttled.rate', value }],
            },
          ],
        });
      await set('3', '2048');
      expect(await throttle()).toMatchObject({
        configValue: '2048',
        configSource: ConfigSource.DYNAMIC_BROKER_CONFIG,
      });
      await expect(set('3', 'fast')).rejects.toMatchObject({ type: 'INVALID_CONFIG' });
      expect((await throttle())?.configValue).toBe('2048');
      // AlterConfigs replaces a scope's whole set: an empty one clears it.
      await admin.alterConfigs({
        validateOnly: false,
        resources: [{ type: ConfigResourceTypes.BROKER, name: '3', configEntries: [] }],
      });
      expect((await throttle())?.configSource).toBe(ConfigSource.DEFAULT_CONFIG);
    });
  });

  it('refuses to alter broker configs', async () => {
    await withAdmin(kafka, async (admin) => {
      await expect(
        admin.alterConfigs({
          validateOnly: false,
          resources: [
            {
              type: ConfigResourceTypes.BROKER,
              name: '3',
              configEntries: [{ name: 'num.partitions', value: '5' }],
            },
          ],
        }),
      ).rejects.toMatchObject({ type: 'INVALID_REQUEST' });
    });
  });
});

describe('topic config overrides across a restart', () => {
  it('keeps an altered config and applies it after the broker restarts', async () => {
    const first = await startBroker(brokerOverrides);
    try {
      await withAdmin(kafkaFor(first), async (admin) => {
        await admin.createTopics({ topics: [{ topic: 'durable-config', numPartitions: 1 }] });
        await setTopicConfigs(admin, 'durable-config', {
          'retention.ms': '60000',
          'max.message.bytes': '1024',
        });
      });
    } finally {
      await first.stop();
    }
    const second = await startBroker(brokerOverrides, first.dataDir);
    try {
      const kafka = kafkaFor(second);
      const configs = await withAdmin(kafka, (admin) => topicConfigs(admin, 'durable-config'));
      expect(configs.get('retention.ms')).toMatchObject({
        configValue: '60000',
        configSource: ConfigSource.TOPIC_CONFIG,
      });
      const producer = kafka.producer({ allowAutoTopicCreation: false, retry: { retries: 0 } });
      await producer.connect();
      try {
        await expect(
          producer.send({ topic: 'durable-config', messages: [{ value: 'x'.repeat(4096) }] }),
        ).rejects.toMatchObject({ type: 'MESSAGE_TOO_LARGE' });
      } finally {
        await producer.disconnect();
      }
    } finally {
      await second.dispose();
      // The first broker's data directory is the one the second reused; dispose removes it.
      await first.dispose();
    }
  });
});
