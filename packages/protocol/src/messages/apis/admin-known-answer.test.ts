import { describe, expect, it } from 'vitest';
import {
  bytes,
  compactCount,
  compactStr,
  count,
  i8,
  i16,
  i32,
  i64,
  noTags,
  requestV1,
  requestV2,
  responseV0,
  responseV1,
  sized,
  str,
  uvarint,
} from '../../../test/hand-assembled-frames';
import { decodeWithKafkajs, encodeWithKafkajs, kafkajsRequest } from '../../../test/kafkajs-interop';
import {
  decodeRequestFrame,
  decodeResponseFrame,
  encodeRequestFrame,
  encodeResponseFrame,
} from '../message-codec';
import { apiByKey } from '../registry';
import { CreateTopics } from './create-topics';
import { DescribeProducers } from './describe-producers';
import { DescribeTransactions } from './describe-transactions';
import { IncrementalAlterConfigs } from './incremental-alter-configs';
import { ListTransactions } from './list-transactions';
import { TxnOffsetCommit } from './txn-offset-commit';

/**
 * Known-answer tests for the admin and transaction versions kafkajs does not implement: CreateTopics
 * v4, IncrementalAlterConfigs v0, TxnOffsetCommit v2, and the flexible-only DescribeProducers,
 * DescribeTransactions and ListTransactions v0. Each frame is assembled by hand from Kafka's message
 * definitions, then decoded by our codec and compared field by field, and our encoding of the same
 * values must reproduce it byte for byte, so a field out of order fails both ways.
 */

/** Decodes a kafkajs-encoded request frame with our codec, failing the test on a decode error. */
function decodeOurs(frame: Buffer) {
  expect(frame.readInt32BE(0)).toBe(frame.length - 4);
  const decoded = decodeRequestFrame(frame.subarray(4), apiByKey);
  if (!decoded.ok) throw decoded.error;
  return decoded;
}

describe('CreateTopics v4 (kafkajs stops at v3)', () => {
  const request = requestV1(
    19,
    4,
    77,
    'kat',
    bytes(
      count(1),
      str('orders'),
      i32(-1), // numPartitions: broker default (the v4 meaning)
      i16(-1), // replicationFactor: broker default
      count(1),
      i32(0),
      count(2),
      i32(1),
      i32(2),
      count(2),
      str('cleanup.policy'),
      str('compact'),
      str('retention.ms'),
      str(null),
      i32(30000),
      i8(1),
    ),
  );
  const requestBody = {
    topics: [
      {
        name: 'orders',
        numPartitions: -1,
        replicationFactor: -1,
        assignments: [{ partitionIndex: 0, brokerIds: [1, 2] }],
        configs: [
          { name: 'cleanup.policy', value: 'compact' },
          { name: 'retention.ms', value: null },
        ],
      },
    ],
    timeoutMs: 30000,
    validateOnly: true,
  };
  const response = responseV0(
    77,
    bytes(
      i32(25),
      count(2),
      str('orders'),
      i16(0),
      str(null),
      str('audit'),
      i16(36),
      str('Topic audit already exists.'),
    ),
  );
  const responseBody = {
    throttleTimeMs: 25,
    topics: [
      { name: 'orders', errorCode: 0, errorMessage: null },
      { name: 'audit', errorCode: 36, errorMessage: 'Topic audit already exists.' },
    ],
  };

  it('decodes and encodes the hand-assembled request', () => {
    const decoded = decodeRequestFrame(request, apiByKey);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.header).toEqual({ apiKey: 19, apiVersion: 4, correlationId: 77, clientId: 'kat' });
    expect(decoded.body).toEqual(requestBody);
    expect(encodeRequestFrame(CreateTopics, 4, 77, 'kat', requestBody)).toEqual(sized(request));
  });

  it('decodes and encodes the hand-assembled response', () => {
    const decoded = decodeResponseFrame(CreateTopics, 4, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value).toEqual({ correlationId: 77, body: responseBody });
    expect(encodeResponseFrame(CreateTopics, 4, 77, responseBody)).toEqual(sized(response));
  });

  it('is v3 on the wire: a kafkajs v3 request relabelled v4 decodes, and kafkajs v3 reads our v4', async () => {
    const v3 = kafkajsRequest('createTopics', 3)({ topics: [{ topic: 'orders' }], timeout: 30000 });
    const decoded = decodeOurs(await encodeWithKafkajs({ ...v3, apiVersion: 4 }));
    expect(decoded.header.apiVersion).toBe(4);
    expect(decoded.body).toEqual({
      topics: [{ name: 'orders', numPartitions: -1, replicationFactor: -1, assignments: [], configs: [] }],
      timeoutMs: 30000,
      validateOnly: false,
    });
    const frame = encodeResponseFrame(CreateTopics, 4, 77, responseBody);
    expect(await decodeWithKafkajs('createTopics', 3, frame)).toEqual({
      throttleTime: 0,
      clientSideThrottleTime: 25,
      topicErrors: [
        { topic: 'audit', errorCode: 36, errorMessage: 'Topic audit already exists.' },
        { topic: 'orders', errorCode: 0, errorMessage: null },
      ],
    });
  });
});

describe('IncrementalAlterConfigs v0 (kafkajs lacks the API)', () => {
  const request = requestV1(
    44,
    0,
    78,
    'kat',
    bytes(
      count(1),
      i8(2), // resourceType TOPIC
      str('orders'),
      count(2),
      str('retention.ms'),
      i8(0), // SET
      str('86400000'),
      str('cleanup.policy'),
      i8(1), // DELETE
      str(null),
      i8(1), // validateOnly
    ),
  );
  const requestBody = {
    resources: [
      {
        resourceType: 2,
        resourceName: 'orders',
        configs: [
          { name: 'retention.ms', configOperation: 0, value: '86400000' },
          { name: 'cleanup.policy', configOperation: 1, value: null },
        ],
      },
    ],
    validateOnly: true,
  };
  const response = responseV0(
    78,
    bytes(
      i32(25),
      count(2),
      i16(0),
      str(null),
      i8(2),
      str('orders'),
      i16(40),
      str('bad value'),
      i8(4),
      str('1'),
    ),
  );
  const responseBody = {
    throttleTimeMs: 25,
    responses: [
      { errorCode: 0, errorMessage: null, resourceType: 2, resourceName: 'orders' },
      { errorCode: 40, errorMessage: 'bad value', resourceType: 4, resourceName: '1' },
    ],
  };

  it('decodes and encodes the hand-assembled request', () => {
    const decoded = decodeRequestFrame(request, apiByKey);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.header).toEqual({ apiKey: 44, apiVersion: 0, correlationId: 78, clientId: 'kat' });
    expect(decoded.body).toEqual(requestBody);
    expect(encodeRequestFrame(IncrementalAlterConfigs, 0, 78, 'kat', requestBody)).toEqual(sized(request));
  });

  it('decodes and encodes the hand-assembled response', () => {
    const decoded = decodeResponseFrame(IncrementalAlterConfigs, 0, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value).toEqual({ correlationId: 78, body: responseBody });
    expect(encodeResponseFrame(IncrementalAlterConfigs, 0, 78, responseBody)).toEqual(sized(response));
  });

  it('refuses the flexible v1', () => {
    const decoded = decodeRequestFrame(requestV1(44, 1, 79, 'kat', Buffer.alloc(0)), apiByKey);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error.kind).toBe('unsupported-version');
  });
});

describe('TxnOffsetCommit v2 (kafkajs stops at v1; librdkafka picks v2)', () => {
  const request = requestV1(
    28,
    2,
    31,
    'rdkafka',
    bytes(
      str('tx-1'),
      str('billing'),
      i64(4000n),
      i16(7),
      count(1),
      str('orders'),
      count(2),
      i32(1),
      i64(100n),
      i32(5), // committedLeaderEpoch, new in v2, between the offset and the metadata
      str(null),
      i32(2),
      i64(7n),
      i32(-1),
      str('note'),
    ),
  );
  const requestBody = {
    transactionalId: 'tx-1',
    groupId: 'billing',
    producerId: 4000n,
    producerEpoch: 7,
    topics: [
      {
        name: 'orders',
        partitions: [
          { partitionIndex: 1, committedOffset: 100n, committedLeaderEpoch: 5, committedMetadata: null },
          { partitionIndex: 2, committedOffset: 7n, committedLeaderEpoch: -1, committedMetadata: 'note' },
        ],
      },
    ],
  };
  const response = responseV0(31, bytes(i32(25), count(1), str('orders'), count(1), i32(1), i16(47)));
  const responseBody = {
    throttleTimeMs: 25,
    topics: [{ name: 'orders', partitions: [{ partitionIndex: 1, errorCode: 47 }] }],
  };

  it('decodes and encodes the hand-assembled request', () => {
    const decoded = decodeRequestFrame(request, apiByKey);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.header).toEqual({ apiKey: 28, apiVersion: 2, correlationId: 31, clientId: 'rdkafka' });
    expect(decoded.body).toEqual(requestBody);
    expect(encodeRequestFrame(TxnOffsetCommit, 2, 31, 'rdkafka', requestBody)).toEqual(sized(request));
  });

  it('decodes and encodes the hand-assembled response', () => {
    const decoded = decodeResponseFrame(TxnOffsetCommit, 2, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value).toEqual({ correlationId: 31, body: responseBody });
    expect(encodeResponseFrame(TxnOffsetCommit, 2, 31, responseBody)).toEqual(sized(response));
  });
});

describe('DescribeProducers v0 (flexible only)', () => {
  const request = requestV2(
    61,
    0,
    41,
    'admin',
    bytes(
      compactCount(1),
      compactStr('orders'),
      compactCount(2),
      i32(0),
      i32(3),
      noTags, // topic struct
      noTags, // request body
    ),
  );
  const requestBody = { topics: [{ name: 'orders', partitionIndexes: [0, 3] }] };
  const response = responseV1(
    41,
    bytes(
      i32(25),
      compactCount(1),
      compactStr('orders'),
      compactCount(2),
      // partition 0: one active producer
      i32(0),
      i16(0),
      compactStr(null),
      compactCount(1),
      i64(5000n),
      i32(3), // producerEpoch is int32 in this API
      i32(41),
      i64(1700000000000n),
      i32(2),
      i64(120n),
      noTags, // producer state
      noTags, // partition 0
      // partition 3: not led here
      i32(3),
      i16(6),
      compactStr('not the leader'),
      compactCount(0),
      noTags, // partition 3
      noTags, // topic
      noTags, // response body
    ),
  );
  const responseBody = {
    throttleTimeMs: 25,
    topics: [
      {
        name: 'orders',
        partitions: [
          {
            partitionIndex: 0,
            errorCode: 0,
            errorMessage: null,
            activeProducers: [
              {
                producerId: 5000n,
                producerEpoch: 3,
                lastSequence: 41,
                lastTimestamp: 1700000000000n,
                coordinatorEpoch: 2,
                currentTxnStartOffset: 120n,
              },
            ],
          },
          { partitionIndex: 3, errorCode: 6, errorMessage: 'not the leader', activeProducers: [] },
        ],
      },
    ],
  };

  it('decodes and encodes the hand-assembled request (header v2)', () => {
    const decoded = decodeRequestFrame(request, apiByKey);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.header).toEqual({ apiKey: 61, apiVersion: 0, correlationId: 41, clientId: 'admin' });
    expect(decoded.body).toEqual(requestBody);
    expect(encodeRequestFrame(DescribeProducers, 0, 41, 'admin', requestBody)).toEqual(sized(request));
  });

  it('decodes and encodes the hand-assembled response (header v1)', () => {
    const decoded = decodeResponseFrame(DescribeProducers, 0, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value).toEqual({ correlationId: 41, body: responseBody });
    expect(encodeResponseFrame(DescribeProducers, 0, 41, responseBody)).toEqual(sized(response));
  });
});

describe('DescribeTransactions v0 (flexible only)', () => {
  const requestBytes = bytes(compactCount(2), compactStr('tx-1'), compactStr('tx-2'));
  const request = requestV2(65, 0, 42, 'admin', bytes(requestBytes, noTags));
  const requestBody = { transactionalIds: ['tx-1', 'tx-2'] };
  const response = responseV1(
    42,
    bytes(
      i32(25),
      compactCount(2),
      i16(0),
      compactStr('tx-1'),
      compactStr('Ongoing'),
      i32(60000),
      i64(1700000000000n),
      i64(4000n),
      i16(7),
      compactCount(1),
      compactStr('orders'),
      compactCount(2),
      i32(0),
      i32(2),
      noTags, // topic
      noTags, // transaction state 1
      i16(105), // TRANSACTIONAL_ID_NOT_FOUND
      compactStr('tx-2'),
      compactStr(''),
      i32(0),
      i64(-1n),
      i64(-1n),
      i16(-1),
      compactCount(0),
      noTags, // transaction state 2
      noTags, // response body
    ),
  );
  const responseBody = {
    throttleTimeMs: 25,
    transactionStates: [
      {
        errorCode: 0,
        transactionalId: 'tx-1',
        transactionState: 'Ongoing',
        transactionTimeoutMs: 60000,
        transactionStartTimeMs: 1700000000000n,
        producerId: 4000n,
        producerEpoch: 7,
        topics: [{ topic: 'orders', partitions: [0, 2] }],
      },
      {
        errorCode: 105,
        transactionalId: 'tx-2',
        transactionState: '',
        transactionTimeoutMs: 0,
        transactionStartTimeMs: -1n,
        producerId: -1n,
        producerEpoch: -1,
        topics: [],
      },
    ],
  };

  it('decodes and encodes the hand-assembled request (header v2)', () => {
    const decoded = decodeRequestFrame(request, apiByKey);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.header).toEqual({ apiKey: 65, apiVersion: 0, correlationId: 42, clientId: 'admin' });
    expect(decoded.body).toEqual(requestBody);
    expect(encodeRequestFrame(DescribeTransactions, 0, 42, 'admin', requestBody)).toEqual(sized(request));
  });

  it('skips unknown tagged fields in the request header and body', () => {
    const unknownTag = bytes(uvarint(1), uvarint(9), uvarint(3), Buffer.of(0xca, 0xfe, 0x01));
    const tagged = bytes(i16(65), i16(0), i32(42), str('admin'), unknownTag, requestBytes, unknownTag);
    const decoded = decodeRequestFrame(tagged, apiByKey);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.body).toEqual(requestBody);
  });

  it('decodes and encodes the hand-assembled response (header v1)', () => {
    const decoded = decodeResponseFrame(DescribeTransactions, 0, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value).toEqual({ correlationId: 42, body: responseBody });
    expect(encodeResponseFrame(DescribeTransactions, 0, 42, responseBody)).toEqual(sized(response));
  });
});

describe('ListTransactions v0 (flexible only)', () => {
  const request = requestV2(
    66,
    0,
    43,
    'admin',
    bytes(
      compactCount(2),
      compactStr('Ongoing'),
      compactStr('PrepareCommit'),
      compactCount(1),
      i64(4000n),
      noTags,
    ),
  );
  const requestBody = { stateFilters: ['Ongoing', 'PrepareCommit'], producerIdFilters: [4000n] };
  const response = responseV1(
    43,
    bytes(
      i32(25),
      i16(0),
      compactCount(1),
      compactStr('Bogus'),
      compactCount(1),
      compactStr('tx-1'),
      i64(4000n),
      compactStr('Ongoing'),
      noTags, // transaction state
      noTags, // response body
    ),
  );
  const responseBody = {
    throttleTimeMs: 25,
    errorCode: 0,
    unknownStateFilters: ['Bogus'],
    transactionStates: [{ transactionalId: 'tx-1', producerId: 4000n, transactionState: 'Ongoing' }],
  };

  it('decodes and encodes the hand-assembled request (header v2)', () => {
    const decoded = decodeRequestFrame(request, apiByKey);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.header).toEqual({ apiKey: 66, apiVersion: 0, correlationId: 43, clientId: 'admin' });
    expect(decoded.body).toEqual(requestBody);
    expect(encodeRequestFrame(ListTransactions, 0, 43, 'admin', requestBody)).toEqual(sized(request));
  });

  it('decodes and encodes the hand-assembled response (header v1)', () => {
    const decoded = decodeResponseFrame(ListTransactions, 0, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value).toEqual({ correlationId: 43, body: responseBody });
    expect(encodeResponseFrame(ListTransactions, 0, 43, responseBody)).toEqual(sized(response));
  });

  it('refuses v1, which this codec leaves out', () => {
    const decoded = decodeRequestFrame(requestV2(66, 1, 44, 'admin', Buffer.alloc(0)), apiByKey);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error.kind).toBe('unsupported-version');
  });
});
