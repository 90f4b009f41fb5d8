import { describe, expect, it } from 'vitest';
import { decodeWithKafkajs, encodeWithKafkajs, kafkajsRequest } from '../../../test/kafkajs-interop';
import { decodeRequestFrame, encodeResponseFrame } from '../message-codec';
import { apiByKey } from '../registry';
import { AddOffsetsToTxn } from './add-offsets-to-txn';
import { AddPartitionsToTxn } from './add-partitions-to-txn';
import { EndTxn } from './end-txn';
import { InitProducerId } from './init-producer-id';
import { TxnOffsetCommit } from './txn-offset-commit';

/** Decodes a kafkajs-encoded request frame with our codec, failing the test on a decode error. */
function decodeOurs(frame: Buffer) {
  expect(frame.readInt32BE(0)).toBe(frame.length - 4);
  const decoded = decodeRequestFrame(frame.subarray(4), apiByKey);
  if (!decoded.ok) throw decoded.error;
  return decoded;
}

describe('kafkajs requests decode with our codec', () => {
  it.each([0, 1])('InitProducerId v%i, transactional', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest('initProducerId', version)({ transactionalId: 'tx-1', transactionTimeout: 60000 }),
      21,
      'producer',
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toEqual({
      apiKey: 22,
      apiVersion: version,
      correlationId: 21,
      clientId: 'producer',
    });
    expect(decoded.body).toEqual({ transactionalId: 'tx-1', transactionTimeoutMs: 60000 });
  });

  it.each([0, 1])('InitProducerId v%i, idempotent only (null transactional id)', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest('initProducerId', version)({ transactionalId: null, transactionTimeout: 30000 }),
    );
    expect(decodeOurs(frame).body).toEqual({ transactionalId: null, transactionTimeoutMs: 30000 });
  });

  it.each([0, 1])('AddPartitionsToTxn v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'addPartitionsToTxn',
        version,
      )({
        transactionalId: 'tx-1',
        producerId: '9007199254740993',
        producerEpoch: 3,
        topics: [
          { topic: 'orders', partitions: [0, 2] },
          { topic: 'audit', partitions: [1] },
        ],
      }),
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toMatchObject({ apiKey: 24, apiVersion: version });
    expect(decoded.body).toEqual({
      v3AndBelowTransactionalId: 'tx-1',
      v3AndBelowProducerId: 9007199254740993n,
      v3AndBelowProducerEpoch: 3,
      v3AndBelowTopics: [
        { name: 'orders', partitions: [0, 2] },
        { name: 'audit', partitions: [1] },
      ],
    });
  });

  it.each([0, 1])('AddOffsetsToTxn v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'addOffsetsToTxn',
        version,
      )({ transactionalId: 'tx-1', producerId: '4000', producerEpoch: 7, groupId: 'billing' }),
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toMatchObject({ apiKey: 25, apiVersion: version });
    expect(decoded.body).toEqual({
      transactionalId: 'tx-1',
      producerId: 4000n,
      producerEpoch: 7,
      groupId: 'billing',
    });
  });

  it.each([
    [0, true],
    [0, false],
    [1, true],
    [1, false],
  ])('EndTxn v%i, committed=%s', async (version, committed) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'endTxn',
        version,
      )({ transactionalId: 'tx-1', producerId: '4000', producerEpoch: 7, transactionResult: committed }),
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toMatchObject({ apiKey: 26, apiVersion: version });
    expect(decoded.body).toEqual({ transactionalId: 'tx-1', producerId: 4000n, producerEpoch: 7, committed });
  });

  it.each([0, 1])('TxnOffsetCommit v%i', async (version) => {
    const frame = await encodeWithKafkajs(
      kafkajsRequest(
        'txnOffsetCommit',
        version,
      )({
        transactionalId: 'tx-1',
        groupId: 'billing',
        producerId: '4000',
        producerEpoch: 7,
        topics: [
          {
            topic: 'orders',
            partitions: [
              { partition: 1, offset: '100', metadata: null },
              { partition: 2, offset: '7', metadata: 'note' },
            ],
          },
        ],
      }),
    );
    const decoded = decodeOurs(frame);
    expect(decoded.header).toMatchObject({ apiKey: 28, apiVersion: version });
    expect(decoded.body).toEqual({
      transactionalId: 'tx-1',
      groupId: 'billing',
      producerId: 4000n,
      producerEpoch: 7,
      topics: [
        {
          name: 'orders',
          partitions: [
            { partitionIndex: 1, committedOffset: 100n, committedLeaderEpoch: -1, committedMetadata: null },
            { partitionIndex: 2, committedOffset: 7n, committedLeaderEpoch: -1, committedMetadata: 'note' },
          ],
        },
      ],
    });
  });
});

describe('our responses decode with kafkajs', () => {
  it.each([0, 1])('InitProducerId v%i', async (version) => {
    const frame = encodeResponseFrame(InitProducerId, version, 9, {
      throttleTimeMs: 25,
      errorCode: 0,
      producerId: 9007199254740993n,
      producerEpoch: 2,
    });
    const decoded = await decodeWithKafkajs('initProducerId', version, frame);
    expect(decoded).toEqual({
      throttleTime: version === 0 ? 25 : 0,
      ...(version === 1 ? { clientSideThrottleTime: 25 } : {}),
      errorCode: 0,
      producerId: '9007199254740993',
      producerEpoch: 2,
    });
  });

  it.each([0, 1])('InitProducerId v%i carries fencing as INVALID_PRODUCER_EPOCH', async (version) => {
    const frame = encodeResponseFrame(InitProducerId, version, 9, {
      throttleTimeMs: 0,
      errorCode: 47,
      producerId: -1n,
      producerEpoch: -1,
    });
    const decoded = await decodeWithKafkajs('initProducerId', version, frame);
    expect(decoded).toMatchObject({ errorCode: 47, producerId: '-1', producerEpoch: -1 });
  });

  it.each([0, 1])('AddPartitionsToTxn v%i', async (version) => {
    const frame = encodeResponseFrame(AddPartitionsToTxn, version, 9, {
      throttleTimeMs: 25,
      resultsByTopicV3AndBelow: [
        {
          name: 'orders',
          resultsByPartition: [
            { partitionIndex: 0, partitionErrorCode: 0 },
            { partitionIndex: 2, partitionErrorCode: 48 },
          ],
        },
      ],
    });
    const decoded = await decodeWithKafkajs('addPartitionsToTxn', version, frame);
    expect(decoded).toEqual({
      throttleTime: version === 0 ? 25 : 0,
      ...(version === 1 ? { clientSideThrottleTime: 25 } : {}),
      errors: [
        {
          topic: 'orders',
          partitionErrors: [
            { partition: 0, errorCode: 0 },
            { partition: 2, errorCode: 48 },
          ],
        },
      ],
    });
  });

  it.each([0, 1])('AddOffsetsToTxn v%i', async (version) => {
    const frame = encodeResponseFrame(AddOffsetsToTxn, version, 9, { throttleTimeMs: 25, errorCode: 51 });
    const decoded = await decodeWithKafkajs('addOffsetsToTxn', version, frame);
    expect(decoded).toEqual({
      throttleTime: version === 0 ? 25 : 0,
      ...(version === 1 ? { clientSideThrottleTime: 25 } : {}),
      errorCode: 51,
    });
  });

  it.each([0, 1])('EndTxn v%i', async (version) => {
    const frame = encodeResponseFrame(EndTxn, version, 9, { throttleTimeMs: 25, errorCode: 48 });
    const decoded = await decodeWithKafkajs('endTxn', version, frame);
    expect(decoded).toEqual({
      throttleTime: version === 0 ? 25 : 0,
      ...(version === 1 ? { clientSideThrottleTime: 25 } : {}),
      errorCode: 48,
    });
  });

  it.each([0, 1])('TxnOffsetCommit v%i', async (version) => {
    const frame = encodeResponseFrame(TxnOffsetCommit, version, 9, {
      throttleTimeMs: 25,
      topics: [
        {
          name: 'orders',
          partitions: [
            { partitionIndex: 1, errorCode: 0 },
            { partitionIndex: 2, errorCode: 16 },
          ],
        },
      ],
    });
    const decoded = await decodeWithKafkajs('txnOffsetCommit', version, frame);
    expect(decoded).toEqual({
      throttleTime: version === 0 ? 25 : 0,
      ...(version === 1 ? { clientSideThrottleTime: 25 } : {}),
      topics: [
        {
          topic: 'orders',
          partitions: [
            { partition: 1, errorCode: 0 },
            { partition: 2, errorCode: 16 },
          ],
        },
      ],
    });
  });
});
