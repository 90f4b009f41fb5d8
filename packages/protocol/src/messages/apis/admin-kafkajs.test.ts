import { describe, expect, it } from 'vitest';
import {
  decodeWithKafkajs,
  encodeWithKafkajs,
  kafkajsRequest,
  kafkajsResponse,
} from '../../../test/kafkajs-interop';
import { decodeRequestFrame, encodeResponseFrame } from '../message-codec';
import { apiByKey } from '../registry';
import { AlterConfigs } from './alter-configs';
import { CreatePartitions } from './create-partitions';
import { CreateTopics } from './create-topics';
import { DeleteRecords } from './delete-records';
import { DeleteTopics } from './delete-topics';
import { DescribeConfigs } from './describe-configs';

/** Decodes a kafkajs-encoded request frame with our codec, failing the test on a decode error. */
function decodeOurs(frame: Buffer) {
  expect(frame.readInt32BE(0)).toBe(frame.length - 4);
  const decoded = decodeRequestFrame(frame.subarray(4), apiByKey);
  if (!decoded.ok) throw decoded.error;
  return decoded;
}

describe('kafkajs requests decode with our codec', () => {
  it.each([0, 1, 2, 3])('CreateTopics v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'createTopics',
        version,
      )({
        topics: [
          {
            topic: 'orders',
            numPartitions: 3,
            replicationFactor: 2,
            replicaAssignment: [{ partition: 0, replicas: [1, 2] }],
            configEntries: [
              { name: 'cleanup.policy', value: 'compact' },
              { name: 'retention.ms', value: null },
            ],
          },
          { topic: 'audit' },
        ],
        validateOnly: true,
        timeout: 1500,
      }),
      11,
      'admin',
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toEqual({ apiKey: 19, apiVersion: version, correlationId: 11, clientId: 'admin' });
    expect(decoded.body).toEqual({
      topics: [
        {
          name: 'orders',
          numPartitions: 3,
          replicationFactor: 2,
          assignments: [{ partitionIndex: 0, brokerIds: [1, 2] }],
          configs: [
            { name: 'cleanup.policy', value: 'compact' },
            { name: 'retention.ms', value: null },
          ],
        },
        { name: 'audit', numPartitions: -1, replicationFactor: -1, assignments: [], configs: [] },
      ],
      timeoutMs: 1500,
      validateOnly: version >= 1,
    });
  });

  it.each([0, 1])('DeleteTopics v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest('deleteTopics', version)({ topics: ['orders', 'audit'], timeout: 2500 }),
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toMatchObject({ apiKey: 20, apiVersion: version });
    expect(decoded.body).toEqual({ topicNames: ['orders', 'audit'], timeoutMs: 2500 });
  });

  it.each([0, 1])('DeleteRecords v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'deleteRecords',
        version,
      )({
        topics: [
          {
            topic: 'orders',
            partitions: [
              { partition: 0, offset: '42' },
              { partition: 3, offset: '-1' },
            ],
          },
        ],
        timeout: 4000,
      }),
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toMatchObject({ apiKey: 21, apiVersion: version });
    expect(decoded.body).toEqual({
      topics: [
        {
          name: 'orders',
          partitions: [
            { partitionIndex: 0, offset: 42n },
            { partitionIndex: 3, offset: -1n },
          ],
        },
      ],
      timeoutMs: 4000,
    });
  });

  it.each([0, 1, 2])('DescribeConfigs v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'describeConfigs',
        version,
      )({
        resources: [
          { type: 2, name: 'orders', configNames: ['cleanup.policy', 'retention.ms'] },
          // kafkajs sends an empty key list as null, which means "every key".
          { type: 4, name: '1', configNames: [] },
        ],
        includeSynonyms: true,
      }),
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toMatchObject({ apiKey: 32, apiVersion: version });
    expect(decoded.body).toEqual({
      resources: [
        { resourceType: 2, resourceName: 'orders', configurationKeys: ['cleanup.policy', 'retention.ms'] },
        { resourceType: 4, resourceName: '1', configurationKeys: null },
      ],
      includeSynonyms: version >= 1,
      // Only v3+ carries it; kafkajs stops at v2.
      includeDocumentation: false,
    });
  });

  it.each([0, 1])('AlterConfigs v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'alterConfigs',
        version,
      )({
        resources: [
          {
            type: 2,
            name: 'orders',
            configEntries: [
              { name: 'retention.ms', value: '86400000' },
              { name: 'segment.bytes', value: null },
            ],
          },
        ],
        validateOnly: true,
      }),
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toMatchObject({ apiKey: 33, apiVersion: version });
    expect(decoded.body).toEqual({
      resources: [
        {
          resourceType: 2,
          resourceName: 'orders',
          configs: [
            { name: 'retention.ms', value: '86400000' },
            { name: 'segment.bytes', value: null },
          ],
        },
      ],
      validateOnly: true,
    });
  });

  it.each([0, 1])('CreatePartitions v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'createPartitions',
        version,
      )({
        topicPartitions: [
          { topic: 'orders', count: 6, assignments: [[1], [2, 3]] },
          // No assignments: kafkajs sends null, letting the broker place the partitions.
          { topic: 'audit', count: 2 },
        ],
        validateOnly: true,
        timeout: 3000,
      }),
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toMatchObject({ apiKey: 37, apiVersion: version });
    expect(decoded.body).toEqual({
      topics: [
        { name: 'orders', count: 6, assignments: [{ brokerIds: [1] }, { brokerIds: [2, 3] }] },
        { name: 'audit', count: 2, assignments: null },
      ],
      timeoutMs: 3000,
      validateOnly: true,
    });
  });
});

describe('our responses decode with kafkajs', () => {
  it.each([0, 1, 2, 3])('CreateTopics v%i', async (version) => {
    const frame = encodeResponseFrame(CreateTopics, version, 5, {
      throttleTimeMs: 25,
      topics: [
        { name: 'orders', errorCode: 36, errorMessage: 'Topic orders already exists.' },
        { name: 'audit', errorCode: 0, errorMessage: null },
      ],
    });
    const decoded = await decodeWithKafkajs('createTopics', version, frame);
    // kafkajs sorts the topics by name.
    const topicErrors =
      version === 0
        ? [
            { topic: 'audit', errorCode: 0 },
            { topic: 'orders', errorCode: 36 },
          ]
        : [
            { topic: 'audit', errorCode: 0, errorMessage: null },
            { topic: 'orders', errorCode: 36, errorMessage: 'Topic orders already exists.' },
          ];
    const throttle =
      version < 2
        ? {}
        : version === 2
          ? { throttleTime: 25 }
          : { throttleTime: 0, clientSideThrottleTime: 25 };
    expect(decoded).toEqual({ ...throttle, topicErrors });
  });

  it.each([0, 1])('DeleteTopics v%i', async (version) => {
    const frame = encodeResponseFrame(DeleteTopics, version, 5, {
      throttleTimeMs: 25,
      responses: [
        { name: 'orders', errorCode: 0 },
        { name: 'missing', errorCode: 3 },
      ],
    });
    const decoded = await decodeWithKafkajs('deleteTopics', version, frame);
    expect(decoded).toEqual({
      ...(version === 1 ? { throttleTime: 0, clientSideThrottleTime: 25 } : {}),
      topicErrors: [
        { topic: 'missing', errorCode: 3 },
        { topic: 'orders', errorCode: 0 },
      ],
    });
  });

  it.each([0, 1])('DeleteRecords v%i', async (version) => {
    const frame = encodeResponseFrame(DeleteRecords, version, 5, {
      throttleTimeMs: 25,
      topics: [
        {
          name: 'orders',
          partitions: [
            { partitionIndex: 0, lowWatermark: 42n, errorCode: 0 },
            { partitionIndex: 3, lowWatermark: -1n, errorCode: 1 },
          ],
        },
      ],
    });
    // kafkajs builds its DeleteRecords response decoder from the request's topics.
    const responseFor = kafkajsResponse('deleteRecords', version) as unknown as (request: {
      topics: unknown[];
    }) => { decode: (payload: Buffer) => Promise<Record<string, unknown>> };
    const decoded = await responseFor({ topics: [] }).decode(frame.subarray(8));
    expect(decoded).toEqual({
      throttleTime: version === 0 ? 25 : 0,
      ...(version === 1 ? { clientSideThrottleTime: 25 } : {}),
      topics: [
        {
          topic: 'orders',
          partitions: [
            { partition: 0, lowWatermark: 42n, errorCode: 0 },
            { partition: 3, lowWatermark: -1n, errorCode: 1 },
          ],
        },
      ],
    });
  });

  it('DescribeConfigs v0 (isDefault)', async () => {
    const frame = encodeResponseFrame(DescribeConfigs, 0, 5, {
      throttleTimeMs: 25,
      results: [
        {
          errorCode: 0,
          errorMessage: null,
          resourceType: 2,
          resourceName: 'orders',
          configs: [
            {
              name: 'cleanup.policy',
              value: 'compact',
              readOnly: true,
              isDefault: false,
              configSource: -1,
              isSensitive: false,
              synonyms: [],
              configType: 0,
              documentation: null,
            },
            {
              name: 'compression.type',
              value: null,
              readOnly: false,
              isDefault: true,
              configSource: -1,
              isSensitive: false,
              synonyms: [],
              configType: 0,
              documentation: null,
            },
          ],
        },
      ],
    });
    const decoded = await decodeWithKafkajs('describeConfigs', 0, frame);
    expect(decoded).toEqual({
      throttleTime: 25,
      resources: [
        {
          errorCode: 0,
          errorMessage: null,
          resourceType: 2,
          resourceName: 'orders',
          configEntries: [
            {
              configName: 'cleanup.policy',
              configValue: 'compact',
              readOnly: true,
              isDefault: false,
              configSource: 1, // kafkajs infers TOPIC_CONFIG from the resource type
              isSensitive: false,
            },
            {
              configName: 'compression.type',
              configValue: null,
              readOnly: false,
              isDefault: true,
              configSource: 5, // DEFAULT_CONFIG
              isSensitive: false,
            },
          ],
        },
      ],
    });
  });

  it.each([1, 2])('DescribeConfigs v%i (configSource and synonyms)', async (version) => {
    const frame = encodeResponseFrame(DescribeConfigs, version, 5, {
      throttleTimeMs: 25,
      results: [
        {
          errorCode: 0,
          errorMessage: null,
          resourceType: 2,
          resourceName: 'orders',
          configs: [
            {
              name: 'retention.ms',
              value: '3600000',
              readOnly: true,
              isDefault: false,
              configSource: 1,
              isSensitive: false,
              synonyms: [
                { name: 'retention.ms', value: '3600000', source: 1 },
                { name: 'log.retention.hours', value: null, source: 5 },
              ],
              configType: 0,
              documentation: null,
            },
          ],
        },
        {
          errorCode: 3,
          errorMessage: 'no such topic',
          resourceType: 2,
          resourceName: 'missing',
          configs: [],
        },
      ],
    });
    const decoded = await decodeWithKafkajs('describeConfigs', version, frame);
    expect(decoded).toEqual({
      throttleTime: version === 1 ? 25 : 0,
      ...(version === 2 ? { clientSideThrottleTime: 25 } : {}),
      resources: [
        {
          errorCode: 0,
          errorMessage: null,
          resourceType: 2,
          resourceName: 'orders',
          configEntries: [
            {
              configName: 'retention.ms',
              configValue: '3600000',
              readOnly: true,
              isDefault: false,
              configSource: 1,
              isSensitive: false,
              configSynonyms: [
                { configName: 'retention.ms', configValue: '3600000', configSource: 1 },
                { configName: 'log.retention.hours', configValue: null, configSource: 5 },
              ],
            },
          ],
        },
        {
          errorCode: 3,
          errorMessage: 'no such topic',
          resourceType: 2,
          resourceName: 'missing',
          configEntries: [],
        },
      ],
    });
  });

  it.each([0, 1])('AlterConfigs v%i', async (version) => {
    const frame = encodeResponseFrame(AlterConfigs, version, 5, {
      throttleTimeMs: 25,
      responses: [
        { errorCode: 0, errorMessage: null, resourceType: 2, resourceName: 'orders' },
        { errorCode: 40, errorMessage: 'bad value', resourceType: 4, resourceName: '1' },
      ],
    });
    const decoded = await decodeWithKafkajs('alterConfigs', version, frame);
    expect(decoded).toEqual({
      throttleTime: version === 0 ? 25 : 0,
      ...(version === 1 ? { clientSideThrottleTime: 25 } : {}),
      resources: [
        { errorCode: 0, errorMessage: null, resourceType: 2, resourceName: 'orders' },
        { errorCode: 40, errorMessage: 'bad value', resourceType: 4, resourceName: '1' },
      ],
    });
  });

  it.each([0, 1])('CreatePartitions v%i', async (version) => {
    const frame = encodeResponseFrame(CreatePartitions, version, 5, {
      throttleTimeMs: 25,
      results: [
        { name: 'orders', errorCode: 0, errorMessage: null },
        { name: 'audit', errorCode: 37, errorMessage: 'cannot shrink' },
      ],
    });
    const decoded = await decodeWithKafkajs('createPartitions', version, frame);
    expect(decoded).toEqual({
      throttleTime: version === 0 ? 25 : 0,
      ...(version === 1 ? { clientSideThrottleTime: 25 } : {}),
      topicErrors: [
        { topic: 'audit', errorCode: 37, errorMessage: 'cannot shrink' },
        { topic: 'orders', errorCode: 0, errorMessage: null },
      ],
    });
  });
});
