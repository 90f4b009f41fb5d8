import { describe, expect, it } from 'vitest';
import { decodeWithKafkajs, encodeWithKafkajs, kafkajsRequest } from '../../../test/kafkajs-interop';
import { ZERO_UUID } from '../../schema/types';
import { decodeRequestFrame, encodeResponseFrame } from '../message-codec';
import { apiByKey } from '../registry';
import { ApiVersions } from './api-versions';
import { Fetch } from './fetch';
import { Metadata } from './metadata';
import { Produce } from './produce';

/** Decodes a kafkajs-encoded request frame with our codec, failing the test on a decode error. */
function decodeOurs(frame: Buffer) {
  expect(frame.readInt32BE(0)).toBe(frame.length - 4);
  const decoded = decodeRequestFrame(frame.subarray(4), apiByKey);
  if (!decoded.ok) throw decoded.error;
  return decoded;
}

describe('kafkajs requests decode with our codec', () => {
  it.each([0, 1, 2])('ApiVersions v%i', async (version) => {
    const frame = await encodeWithKafkajs(kafkajsRequest('apiVersions', version)({}), 42, 'probe');
    const decoded = decodeOurs(frame);
    expect(decoded.header).toEqual({ apiKey: 18, apiVersion: version, correlationId: 42, clientId: 'probe' });
    expect(decoded.body).toEqual({ clientSoftwareName: '', clientSoftwareVersion: '' });
  });

  it.each([1, 2, 3, 4, 5, 6])('Metadata v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest('metadata', version)({ topics: ['orders', 'payments'], allowAutoTopicCreation: false }),
    );
    const decoded = decodeOurs(frame);
    // The topic id is not on the wire before v10: the zero id, its default.
    expect(decoded.body).toEqual({
      topics: [
        { topicId: ZERO_UUID, name: 'orders' },
        { topicId: ZERO_UUID, name: 'payments' },
      ],
      allowAutoTopicCreation: version < 4,
      // Not on the wire before v8: the defaults.
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
  });

  it.each([3, 4, 5, 6, 7])('Produce v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'produce',
        version,
      )({
        acks: -1,
        timeout: 30000,
        transactionalId: 'tx-1',
        producerId: 5,
        producerEpoch: 0,
        compression: 0,
        topicData: [{ topic: 'orders', partitions: [{ partition: 2, firstSequence: 0, messages: [] }] }],
      }),
    );
    const decoded = decodeOurs(frame);
    const body = decoded.body as {
      transactionalId: string | null;
      acks: number;
      timeoutMs: number;
      topicData: { name: string; partitionData: { index: number; records: Buffer | null }[] }[];
    };
    expect(body.transactionalId).toBe('tx-1');
    expect(body.acks).toBe(-1);
    expect(body.timeoutMs).toBe(30000);
    expect(body.topicData[0]!.name).toBe('orders');
    expect(body.topicData[0]!.partitionData[0]!.index).toBe(2);
    // The records are a RecordBatch v2 written by kafkajs; here only their framing is checked.
    const batch = body.topicData[0]!.partitionData[0]!.records!;
    expect(batch.readInt8(16)).toBe(2);
    expect(batch.readInt32BE(8)).toBe(batch.length - 12);
  });

  it.each([4, 5, 6, 7, 8, 9, 10, 11])('Fetch v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'fetch',
        version,
      )({
        replicaId: -1,
        maxWaitTime: 500,
        minBytes: 1,
        maxBytes: 1048576,
        isolationLevel: 1,
        topics: [{ topic: 'orders', partitions: [{ partition: 0, fetchOffset: '17', maxBytes: 65536 }] }],
        rackId: 'rack-a',
      }),
    );
    const decoded = decodeOurs(frame);
    expect(decoded.body).toMatchObject({
      replicaId: -1,
      maxWaitMs: 500,
      minBytes: 1,
      maxBytes: 1048576,
      isolationLevel: 1,
      topics: [
        { topic: 'orders', partitions: [{ partition: 0, fetchOffset: 17n, partitionMaxBytes: 65536 }] },
      ],
      rackId: version >= 11 ? 'rack-a' : '',
    });
  });
});

describe('our responses decode with kafkajs', () => {
  it.each([0, 1, 2])('ApiVersions v%i', async (version) => {
    const frame = encodeResponseFrame(ApiVersions, version, 9, {
      errorCode: 0,
      apiKeys: [
        { apiKey: 0, minVersion: 3, maxVersion: 7 },
        { apiKey: 18, minVersion: 0, maxVersion: 3 },
      ],
      throttleTimeMs: 0,
    });
    const decoded = await decodeWithKafkajs('apiVersions', version, frame);
    expect(decoded.errorCode).toBe(0);
    expect(decoded.apiVersions).toEqual([
      { apiKey: 0, minVersion: 3, maxVersion: 7 },
      { apiKey: 18, minVersion: 0, maxVersion: 3 },
    ]);
  });

  it.each([1, 2, 3, 4, 5, 6])('Metadata v%i', async (version) => {
    const frame = encodeResponseFrame(Metadata, version, 3, {
      throttleTimeMs: 0,
      brokers: [{ nodeId: 1, host: '127.0.0.1', port: 9092, rack: null }],
      clusterId: 'weir-cluster',
      controllerId: 1,
      topics: [
        {
          errorCode: 0,
          name: 'orders',
          topicId: '00000000-0000-0000-0000-000000000000',
          isInternal: false,
          partitions: [
            {
              errorCode: 0,
              partitionIndex: 0,
              leaderId: 1,
              leaderEpoch: -1,
              replicaNodes: [1],
              isrNodes: [1],
              offlineReplicas: [],
            },
          ],
          topicAuthorizedOperations: -2147483648,
        },
      ],
      clusterAuthorizedOperations: -2147483648,
    });
    const decoded = await decodeWithKafkajs('metadata', version, frame);
    expect(decoded.brokers).toEqual([expect.objectContaining({ nodeId: 1, host: '127.0.0.1', port: 9092 })]);
    expect(decoded.controllerId).toBe(1);
    if (version >= 2) expect(decoded.clusterId).toBe('weir-cluster');
    expect(decoded.topicMetadata).toEqual([
      expect.objectContaining({
        topicErrorCode: 0,
        topic: 'orders',
        partitionMetadata: [expect.objectContaining({ partitionId: 0, leader: 1, replicas: [1], isr: [1] })],
      }),
    ]);
  });

  it.each([3, 4, 5, 6, 7])('Produce v%i', async (version) => {
    const frame = encodeResponseFrame(Produce, version, 3, {
      responses: [
        {
          name: 'orders',
          partitionResponses: [
            {
              index: 2,
              errorCode: 0,
              baseOffset: 1234n,
              logAppendTimeMs: -1n,
              logStartOffset: 10n,
              recordErrors: [],
              errorMessage: null,
            },
          ],
        },
      ],
      throttleTimeMs: 0,
    });
    const decoded = await decodeWithKafkajs('produce', version, frame);
    expect(decoded.topics).toEqual([
      {
        topicName: 'orders',
        partitions: [
          expect.objectContaining({ partition: 2, errorCode: 0, baseOffset: '1234', logAppendTime: '-1' }),
        ],
      },
    ]);
  });

  it.each([4, 5, 6, 7, 8, 9, 10, 11])('Fetch v%i with no records', async (version) => {
    const frame = encodeResponseFrame(Fetch, version, 3, {
      throttleTimeMs: 0,
      errorCode: 0,
      sessionId: 0,
      responses: [
        {
          topic: 'orders',
          partitions: [
            {
              partitionIndex: 0,
              errorCode: 0,
              highWatermark: 42n,
              lastStableOffset: 40n,
              logStartOffset: 3n,
              abortedTransactions: [{ producerId: 7n, firstOffset: 30n }],
              preferredReadReplica: -1,
              records: Buffer.alloc(0),
            },
          ],
        },
      ],
    });
    const decoded = await decodeWithKafkajs('fetch', version, frame);
    const topics = decoded.responses as { topicName: string; partitions: Record<string, unknown>[] }[];
    expect(topics[0]!.topicName).toBe('orders');
    expect(topics[0]!.partitions[0]).toMatchObject({
      partition: 0,
      errorCode: 0,
      highWatermark: '42',
      lastStableOffset: '40',
      abortedTransactions: [{ producerId: '7', firstOffset: '30' }],
      messages: [],
    });
  });
});
