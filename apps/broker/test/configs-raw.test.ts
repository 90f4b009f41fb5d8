import {
  AlterConfigs,
  ApiVersions,
  CreateTopics,
  DescribeConfigs,
  ErrorCode,
  IncrementalAlterConfigs,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RawClient } from './raw-client';

const TOPIC = 2;
const BROKER = 4;
const BROKER_LOGGER = 8;
const SET = 0;
const DELETE = 1;
const APPEND = 2;
const SUBTRACT = 3;
const SOURCE_TOPIC = 1;
const SOURCE_STATIC_BROKER = 4;
const SOURCE_DEFAULT = 5;
const RETENTION_DEFAULT_MS = 3_600_000;
const SEGMENT_DEFAULT_MS = 7 * 24 * 3600 * 1000;

describe('config APIs on the wire (versions and IncrementalAlterConfigs, which kafkajs lacks)', () => {
  let running: RunningBroker;
  let client: RawClient;
  let topicNumber = 0;
  let topic: string;

  beforeAll(async () => {
    running = await startBroker({ nodeId: 1, log: { retentionMs: RETENTION_DEFAULT_MS } });
  });
  afterAll(async () => {
    await running.dispose();
  });
  beforeEach(async () => {
    client = await RawClient.connect(running.bootstrap);
    topic = `raw-configs-${++topicNumber}`;
    const created = await client.request(CreateTopics, 4, {
      topics: [{ name: topic, numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] }],
      timeoutMs: 1000,
      validateOnly: false,
    });
    expect(created.topics[0]!.errorCode).toBe(ErrorCode.NONE);
  });
  afterEach(async () => {
    await client.close();
  });

  function incremental(configs: { name: string; op: number; value: string | null }[], validateOnly = false) {
    return client.request(IncrementalAlterConfigs, 0, {
      resources: [
        {
          resourceType: TOPIC,
          resourceName: topic,
          configs: configs.map((config) => ({
            name: config.name,
            configOperation: config.op,
            value: config.value,
          })),
        },
      ],
      validateOnly,
    });
  }

  async function describeTopic(
    version: number,
    keys: string[] | null = null,
    includeSynonyms = false,
    includeDocumentation = false,
  ) {
    const response = await client.request(DescribeConfigs, version, {
      resources: [{ resourceType: TOPIC, resourceName: topic, configurationKeys: keys }],
      includeSynonyms,
      includeDocumentation,
    });
    expect(response.results[0]!.errorCode).toBe(ErrorCode.NONE);
    return new Map(response.results[0]!.configs.map((entry) => [entry.name, entry]));
  }

  async function configValue(name: string): Promise<string | null | undefined> {
    return (await describeTopic(2, [name])).get(name)?.value;
  }

  it('advertises DescribeConfigs 0–3, AlterConfigs 0–1 and IncrementalAlterConfigs 0', async () => {
    const { apiKeys } = await client.request(ApiVersions, 0, {
      clientSoftwareName: '',
      clientSoftwareVersion: '',
    });
    expect(apiKeys).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ apiKey: 32, minVersion: 0, maxVersion: 3 }),
        expect.objectContaining({ apiKey: 33, minVersion: 0, maxVersion: 1 }),
        expect.objectContaining({ apiKey: 44, minVersion: 0, maxVersion: 0 }),
      ]),
    );
  });

  it('sets and deletes single configs, leaving the others alone', async () => {
    let response = await incremental([
      { name: 'retention.ms', op: SET, value: '60000' },
      { name: 'segment.ms', op: SET, value: '120000' },
    ]);
    expect(response.responses[0]).toMatchObject({ errorCode: ErrorCode.NONE, errorMessage: null });
    response = await incremental([{ name: 'segment.ms', op: DELETE, value: null }]);
    expect(response.responses[0]!.errorCode).toBe(ErrorCode.NONE);
    const configs = await describeTopic(1);
    expect(configs.get('retention.ms')).toMatchObject({ value: '60000', configSource: SOURCE_TOPIC });
    expect(configs.get('segment.ms')).toMatchObject({
      value: String(SEGMENT_DEFAULT_MS),
      configSource: SOURCE_DEFAULT,
    });
  });

  it('appends and subtracts only on list configs, validating the result', async () => {
    const notAList = await incremental([{ name: 'retention.ms', op: APPEND, value: '1' }]);
    expect(notAList.responses[0]!.errorCode).toBe(ErrorCode.INVALID_CONFIG);
    expect(notAList.responses[0]!.errorMessage).toContain('retention.ms');

    const unchanged = await incremental([{ name: 'cleanup.policy', op: APPEND, value: 'delete' }]);
    expect(unchanged.responses[0]!.errorCode).toBe(ErrorCode.NONE);
    expect(await configValue('cleanup.policy')).toBe('delete');

    const unknown = await incremental([{ name: 'cleanup.policy', op: APPEND, value: 'shred' }]);
    expect(unknown.responses[0]!.errorCode).toBe(ErrorCode.INVALID_CONFIG);
    expect(unknown.responses[0]!.errorMessage).toContain('cleanup.policy');

    const compact = await incremental([{ name: 'cleanup.policy', op: APPEND, value: 'compact' }]);
    expect(compact.responses[0]!.errorCode).toBe(ErrorCode.NONE);
    expect(await configValue('cleanup.policy')).toBe('delete,compact');
    const compactOnly = await incremental([{ name: 'cleanup.policy', op: SUBTRACT, value: 'delete' }]);
    expect(compactOnly.responses[0]!.errorCode).toBe(ErrorCode.NONE);
    expect(await configValue('cleanup.policy')).toBe('compact');

    const emptied = await incremental([{ name: 'cleanup.policy', op: SUBTRACT, value: 'compact' }]);
    expect(emptied.responses[0]!.errorCode).toBe(ErrorCode.INVALID_CONFIG);
    expect(await configValue('cleanup.policy')).toBe('compact');
    await incremental([{ name: 'cleanup.policy', op: SET, value: 'delete' }]);
    expect(await configValue('cleanup.policy')).toBe('delete');
  });

  it('refuses unknown configs, unknown operations and duplicates, and applies nothing of them', async () => {
    const unknownConfig = await incremental([
      { name: 'retention.ms', op: SET, value: '60000' },
      { name: 'retention.msec', op: DELETE, value: null },
    ]);
    expect(unknownConfig.responses[0]!.errorCode).toBe(ErrorCode.INVALID_CONFIG);
    expect(unknownConfig.responses[0]!.errorMessage).toContain('retention.msec');
    const unknownOperation = await incremental([{ name: 'retention.ms', op: 9, value: '60000' }]);
    expect(unknownOperation.responses[0]!.errorCode).toBe(ErrorCode.INVALID_REQUEST);
    const duplicate = await incremental([
      { name: 'retention.ms', op: SET, value: '60000' },
      { name: 'retention.ms', op: DELETE, value: null },
    ]);
    expect(duplicate.responses[0]!.errorCode).toBe(ErrorCode.INVALID_REQUEST);
    expect(await configValue('retention.ms')).toBe(String(RETENTION_DEFAULT_MS));
  });

  it('validates without applying when validateOnly is set', async () => {
    const valid = await incremental([{ name: 'retention.ms', op: SET, value: '60000' }], true);
    expect(valid.responses[0]!.errorCode).toBe(ErrorCode.NONE);
    const invalid = await incremental([{ name: 'retention.ms', op: SET, value: 'later' }], true);
    expect(invalid.responses[0]!.errorCode).toBe(ErrorCode.INVALID_CONFIG);
    expect(await configValue('retention.ms')).toBe(String(RETENTION_DEFAULT_MS));
  });

  it('refuses min.insync.replicas above the topic’s replication factor at create and alter, naming both', async () => {
    const created = await client.request(CreateTopics, 4, {
      topics: [
        {
          name: `${topic}-strict`,
          numPartitions: 1,
          replicationFactor: 1,
          assignments: [],
          configs: [{ name: 'min.insync.replicas', value: '2' }],
        },
      ],
      timeoutMs: 1000,
      validateOnly: false,
    });
    expect(created.topics[0]!.errorCode).toBe(ErrorCode.INVALID_CONFIG);
    expect(created.topics[0]!.errorMessage).toContain(
      'min.insync.replicas 2 is larger than the replication factor 1',
    );

    for (const validateOnly of [true, false]) {
      const raised = await incremental([{ name: 'min.insync.replicas', op: SET, value: '2' }], validateOnly);
      expect(raised.responses[0]!.errorCode).toBe(ErrorCode.INVALID_CONFIG);
      expect(raised.responses[0]!.errorMessage).toContain('replication factor 1');
    }
    const replaced = await client.request(AlterConfigs, 0, {
      resources: [
        { resourceType: TOPIC, resourceName: topic, configs: [{ name: 'min.insync.replicas', value: '3' }] },
      ],
      validateOnly: false,
    });
    expect(replaced.responses[0]!.errorCode).toBe(ErrorCode.INVALID_CONFIG);
    expect(await configValue('min.insync.replicas')).toBe('1');

    const unclean = await incremental([
      { name: 'min.insync.replicas', op: SET, value: '1' },
      { name: 'unclean.leader.election.enable', op: SET, value: 'true' },
    ]);
    expect(unclean.responses[0]!.errorCode).toBe(ErrorCode.NONE);
    const configs = await describeTopic(1, ['min.insync.replicas', 'unclean.leader.election.enable'], true);
    expect(configs.get('unclean.leader.election.enable')!.synonyms).toEqual([
      { name: 'unclean.leader.election.enable', value: 'true', source: SOURCE_TOPIC },
      { name: 'unclean.leader.election.enable', value: 'false', source: SOURCE_DEFAULT },
    ]);
    expect(configs.get('min.insync.replicas')).toMatchObject({ value: '1', configSource: SOURCE_TOPIC });
  });

  it('names the config and the reason when AlterConfigs v0 gets a bad value', async () => {
    const response = await client.request(AlterConfigs, 0, {
      resources: [
        { resourceType: TOPIC, resourceName: topic, configs: [{ name: 'segment.bytes', value: '12' }] },
      ],
      validateOnly: false,
    });
    expect(response.responses[0]).toMatchObject({
      errorCode: ErrorCode.INVALID_CONFIG,
      resourceType: TOPIC,
      resourceName: topic,
    });
    expect(response.responses[0]!.errorMessage).toContain(
      'Invalid value 12 for configuration segment.bytes: Value must be at least 1024',
    );
  });

  it("answers retention.ms=abc with Kafka's message in CreateTopics, AlterConfigs and IncrementalAlterConfigs", async () => {
    const kafkaMessage = 'Invalid value abc for configuration retention.ms: Not a number of type LONG';
    for (const validateOnly of [true, false]) {
      const created = await client.request(CreateTopics, 4, {
        topics: [
          {
            name: `${topic}-abc`,
            numPartitions: 1,
            replicationFactor: 1,
            assignments: [],
            configs: [{ name: 'retention.ms', value: 'abc' }],
          },
        ],
        timeoutMs: 1000,
        validateOnly,
      });
      expect(created.topics[0]).toMatchObject({ errorCode: ErrorCode.INVALID_CONFIG });
      expect(created.topics[0]!.errorMessage).toContain(kafkaMessage);

      const replaced = await client.request(AlterConfigs, 1, {
        resources: [
          { resourceType: TOPIC, resourceName: topic, configs: [{ name: 'retention.ms', value: 'abc' }] },
        ],
        validateOnly,
      });
      expect(replaced.responses[0]).toMatchObject({ errorCode: ErrorCode.INVALID_CONFIG });
      expect(replaced.responses[0]!.errorMessage).toContain(kafkaMessage);

      const set = await incremental([{ name: 'retention.ms', op: SET, value: 'abc' }], validateOnly);
      expect(set.responses[0]).toMatchObject({ errorCode: ErrorCode.INVALID_CONFIG });
      expect(set.responses[0]!.errorMessage).toContain(kafkaMessage);
    }
    expect(await configValue('retention.ms')).toBe(String(RETENTION_DEFAULT_MS));
    const unknown = await incremental([{ name: 'retention.msec', op: SET, value: '1' }]);
    expect(unknown.responses[0]!.errorMessage).toContain('Unknown topic config name: retention.msec');
  });

  it('reports is_default at v0 and config_source with synonyms only when asked at v1+', async () => {
    await incremental([{ name: 'retention.ms', op: SET, value: '60000' }]);
    const v0 = await describeTopic(0, ['retention.ms', 'segment.ms']);
    expect(v0.get('retention.ms')).toMatchObject({ value: '60000', isDefault: false, readOnly: false });
    expect(v0.get('segment.ms')).toMatchObject({ isDefault: true });
    // config_source is not on the v0 wire (the decoder, which reads to the end, fills its default).
    expect(v0.get('segment.ms')!.configSource).toBe(-1);

    const withoutSynonyms = await describeTopic(1, ['retention.ms'], false);
    expect(withoutSynonyms.get('retention.ms')).toMatchObject({ configSource: SOURCE_TOPIC, synonyms: [] });
    const withSynonyms = await describeTopic(1, ['retention.ms'], true);
    expect(withSynonyms.get('retention.ms')!.synonyms).toEqual([
      { name: 'retention.ms', value: '60000', source: SOURCE_TOPIC },
      { name: 'log.retention.ms', value: String(RETENTION_DEFAULT_MS), source: SOURCE_DEFAULT },
    ]);
  });

  it('reports each config type from v3, and its documentation only when asked', async () => {
    const plain = await describeTopic(3, [
      'retention.ms',
      'cleanup.policy',
      'unclean.leader.election.enable',
    ]);
    // Kafka's ConfigType ids: LONG 5, LIST 7, BOOLEAN 1.
    expect(plain.get('retention.ms')).toMatchObject({ configType: 5, documentation: null });
    expect(plain.get('cleanup.policy')).toMatchObject({ configType: 7, documentation: null });
    expect(plain.get('unclean.leader.election.enable')).toMatchObject({ configType: 1 });
    const documented = await describeTopic(3, ['retention.ms', 'min.cleanable.dirty.ratio'], false, true);
    expect(documented.get('retention.ms')!.documentation).toMatch(/kept/);
    expect(documented.get('min.cleanable.dirty.ratio')).toMatchObject({ configType: 6 });
    // v2 carries neither field, so the codec decodes the defaults.
    const v2 = await describeTopic(2, ['retention.ms'], false, true);
    expect(v2.get('retention.ms')).toMatchObject({ configType: 0, documentation: null });

    const broker = await client.request(DescribeConfigs, 3, {
      resources: [
        {
          resourceType: BROKER,
          resourceName: '1',
          configurationKeys: [
            'auto.create.topics.enable',
            'log.retention.ms',
            'weir.internal.listener.token',
          ],
        },
      ],
      includeSynonyms: false,
      includeDocumentation: true,
    });
    const brokerEntries = new Map(broker.results[0]!.configs.map((entry) => [entry.name, entry]));
    expect(brokerEntries.get('auto.create.topics.enable')).toMatchObject({ configType: 1 });
    // A topic config's broker-wide default shares its type and says whose default it is.
    expect(brokerEntries.get('log.retention.ms')!.configType).toBe(5);
    expect(brokerEntries.get('log.retention.ms')!.documentation).toContain('retention.ms');
    expect(brokerEntries.get('weir.internal.listener.token')).toMatchObject({ configType: 9, value: null });
  });

  it('answers each resource on its own: unknown types and unknown brokers get INVALID_REQUEST', async () => {
    const response = await client.request(DescribeConfigs, 2, {
      resources: [
        { resourceType: BROKER_LOGGER, resourceName: '1', configurationKeys: null },
        { resourceType: BROKER, resourceName: '99', configurationKeys: null },
        { resourceType: BROKER, resourceName: '', configurationKeys: ['broker.id'] },
        { resourceType: TOPIC, resourceName: 'no-such-topic', configurationKeys: null },
        { resourceType: TOPIC, resourceName: topic, configurationKeys: ['retention.ms'] },
      ],
      includeSynonyms: true,
      includeDocumentation: false,
    });
    const [logger, otherBroker, clusterDefault, missing, known] = response.results;
    expect(logger).toMatchObject({
      errorCode: ErrorCode.INVALID_REQUEST,
      resourceType: BROKER_LOGGER,
      configs: [],
    });
    expect(otherBroker!.errorCode).toBe(ErrorCode.INVALID_REQUEST);
    expect(otherBroker!.errorMessage).toContain('unknown broker');
    expect(clusterDefault).toMatchObject({ errorCode: ErrorCode.NONE, resourceName: '' });
    expect(clusterDefault!.configs).toMatchObject([
      {
        name: 'broker.id',
        value: '1',
        readOnly: true,
        configSource: SOURCE_STATIC_BROKER,
        isSensitive: false,
        synonyms: [
          { name: 'broker.id', value: '1', source: SOURCE_STATIC_BROKER },
          { name: 'broker.id', value: '0', source: SOURCE_DEFAULT },
        ],
      },
    ]);
    expect(missing!.errorCode).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    expect(known).toMatchObject({ errorCode: ErrorCode.NONE, resourceName: topic });
    expect(known!.configs.map((entry) => entry.name)).toEqual(['retention.ms']);
  });

  it("lists the broker's effective configs: set ones as static, the rest default, secrets as null", async () => {
    const response = await client.request(DescribeConfigs, 2, {
      resources: [{ resourceType: BROKER, resourceName: '1', configurationKeys: null }],
      includeSynonyms: false,
      includeDocumentation: false,
    });
    const [broker] = response.results;
    expect(broker!.errorCode).toBe(ErrorCode.NONE);
    const entries = new Map(broker!.configs.map((entry) => [entry.name, entry]));
    // Set by the test's configuration: node id, retention, the listeners' ports (0: any free one,
    // as configured; the bound ports are in Metadata) and the token.
    expect(entries.get('broker.id')).toMatchObject({ value: '1', configSource: SOURCE_STATIC_BROKER });
    expect(entries.get('log.retention.ms')).toMatchObject({
      value: String(RETENTION_DEFAULT_MS),
      configSource: SOURCE_STATIC_BROKER,
    });
    expect(entries.get('listeners')).toMatchObject({
      value: 'CLIENT://127.0.0.1:0,INTERNAL://127.0.0.1:0',
      configSource: SOURCE_STATIC_BROKER,
    });
    expect(entries.get('listener.security.protocol.map')).toMatchObject({
      value: 'CLIENT:PLAINTEXT,INTERNAL:SASL_PLAINTEXT',
      configSource: SOURCE_DEFAULT,
    });
    expect(entries.get('weir.internal.listener.token')).toMatchObject({
      value: null,
      isSensitive: true,
      configSource: SOURCE_STATIC_BROKER,
    });
    // Left at the built-in value: Kafka's DEFAULT_CONFIG, and null where Kafka has no default.
    expect(entries.get('num.partitions')).toMatchObject({ value: '1', configSource: SOURCE_DEFAULT });
    expect(entries.get('min.insync.replicas')).toMatchObject({ value: '1', configSource: SOURCE_DEFAULT });
    expect(entries.get('broker.rack')).toMatchObject({ value: null, configSource: SOURCE_DEFAULT });
    expect(entries.get('weir.bootstrap.admin.password')).toMatchObject({
      value: null,
      isSensitive: true,
      configSource: SOURCE_DEFAULT,
    });
    // No secret appears in any value.
    expect(broker!.configs.some((entry) => entry.value?.includes(running.internalToken))).toBe(false);
    expect([...entries.values()].filter((entry) => entry.isSensitive).map((entry) => entry.name)).toEqual([
      'weir.internal.listener.token',
      'weir.bootstrap.admin.password',
    ]);
  });

  it('keeps both changes when two connections alter the same topic at once', async () => {
    const other = await RawClient.connect(running.bootstrap);
    try {
      const alter = (on: RawClient, name: string, value: string) =>
        on.request(IncrementalAlterConfigs, 0, {
          resources: [
            { resourceType: TOPIC, resourceName: topic, configs: [{ name, configOperation: SET, value }] },
          ],
          validateOnly: false,
        });
      const results = await Promise.all([
        alter(client, 'retention.ms', '60000'),
        alter(other, 'segment.ms', '120000'),
      ]);
      expect(results.map((result) => result.responses[0]!.errorCode)).toEqual([
        ErrorCode.NONE,
        ErrorCode.NONE,
      ]);
    } finally {
      await other.close();
    }
    expect(await configValue('retention.ms')).toBe('60000');
    expect(await configValue('segment.ms')).toBe('120000');
  });

  it('sets the follower throttle as the cluster default (resource ""), and deletes it again', async () => {
    const alter = (operation: number, value: string | null) =>
      client.request(IncrementalAlterConfigs, 0, {
        resources: [
          {
            resourceType: BROKER,
            resourceName: '',
            configs: [{ name: 'follower.replication.throttled.rate', configOperation: operation, value }],
          },
        ],
        validateOnly: false,
      });
    const throttle = async () =>
      (
        await client.request(DescribeConfigs, 2, {
          resources: [
            {
              resourceType: BROKER,
              resourceName: '1',
              configurationKeys: ['follower.replication.throttled.rate'],
            },
          ],
          includeSynonyms: true,
          includeDocumentation: false,
        })
      ).results[0]!.configs[0]!;
    expect((await alter(SET, '5000000')).responses[0]!.errorCode).toBe(ErrorCode.NONE);
    expect(await throttle()).toMatchObject({
      value: '5000000',
      readOnly: false,
      configSource: 3,
      synonyms: [
        { value: '5000000', source: 3 },
        { value: '9223372036854775807', source: SOURCE_DEFAULT },
      ],
    });
    const appended = await alter(APPEND, '1');
    expect(appended.responses[0]!.errorCode).toBe(ErrorCode.INVALID_CONFIG);
    expect((await alter(DELETE, null)).responses[0]!.errorCode).toBe(ErrorCode.NONE);
    expect(await throttle()).toMatchObject({ value: '9223372036854775807', configSource: SOURCE_DEFAULT });
  });

  it('refuses broker config changes as read-only, naming the restart', async () => {
    const response = await client.request(IncrementalAlterConfigs, 0, {
      resources: [
        {
          resourceType: BROKER,
          resourceName: '1',
          configs: [{ name: 'log.retention.ms', configOperation: SET, value: '1000' }],
        },
        { resourceType: BROKER_LOGGER, resourceName: '1', configs: [] },
        {
          resourceType: TOPIC,
          resourceName: topic,
          configs: [{ name: 'retention.ms', configOperation: SET, value: '5000' }],
        },
      ],
      validateOnly: false,
    });
    const [broker, logger, topicResult] = response.responses;
    expect(broker!.errorCode).toBe(ErrorCode.INVALID_REQUEST);
    expect(broker!.errorMessage).toContain('need a restart');
    expect(broker!.errorMessage).toContain('log.retention.ms');
    expect(logger!.errorCode).toBe(ErrorCode.INVALID_REQUEST);
    expect(topicResult!.errorCode).toBe(ErrorCode.NONE);
    expect(await configValue('retention.ms')).toBe('5000');
  });
});
