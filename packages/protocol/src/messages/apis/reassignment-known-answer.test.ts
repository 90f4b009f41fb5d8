import { describe, expect, it } from 'vitest';
import {
  bytes,
  compactCount,
  compactStr,
  count,
  i8,
  i16,
  i32,
  noTags,
  requestV1,
  requestV2,
  responseV0,
  responseV1,
  sized,
  str,
} from '../../../test/hand-assembled-frames';
import {
  decodeRequestFrame,
  decodeResponseFrame,
  encodeRequestFrame,
  encodeResponseFrame,
} from '../message-codec';
import { apiByKey } from '../registry';
import { AlterPartitionReassignments } from './alter-partition-reassignments';
import { ElectLeaders } from './elect-leaders';
import { ListPartitionReassignments } from './list-partition-reassignments';

/**
 * Known-answer tests for the partition reassignment and leader election APIs: frames assembled by
 * hand from Kafka's message definitions, decoded by our codec and compared field by field, and
 * re-encoded byte for byte, so a field out of order or in the wrong versions fails both ways.
 */

function decodedRequest(frame: Buffer) {
  const decoded = decodeRequestFrame(frame, apiByKey);
  if (!decoded.ok) throw decoded.error;
  return decoded;
}

describe('AlterPartitionReassignments v0 (flexible only)', () => {
  const request = requestV2(
    45,
    0,
    7,
    'weir',
    bytes(
      i32(30000),
      compactCount(1),
      compactStr('orders'),
      compactCount(2),
      i32(0),
      compactCount(3),
      i32(2),
      i32(3),
      i32(4),
      noTags,
      i32(1),
      compactCount(-1), // null replicas: cancel
      noTags,
      noTags, // topic
      noTags, // body
    ),
  );
  const requestBody = {
    timeoutMs: 30000,
    topics: [
      {
        name: 'orders',
        partitions: [
          { partitionIndex: 0, replicas: [2, 3, 4] },
          { partitionIndex: 1, replicas: null },
        ],
      },
    ],
  };
  const response = responseV1(
    7,
    bytes(
      i32(0),
      i16(0),
      compactStr(null),
      compactCount(1),
      compactStr('orders'),
      compactCount(1),
      i32(1),
      i16(85), // NO_REASSIGNMENT_IN_PROGRESS
      compactStr('none'),
      noTags,
      noTags,
      noTags,
    ),
  );
  const responseBody = {
    throttleTimeMs: 0,
    errorCode: 0,
    errorMessage: null,
    responses: [{ name: 'orders', partitions: [{ partitionIndex: 1, errorCode: 85, errorMessage: 'none' }] }],
  };

  it('decodes and encodes the request, a null replica list meaning cancel', () => {
    expect(decodedRequest(request).body).toEqual(requestBody);
    expect(encodeRequestFrame(AlterPartitionReassignments, 0, 7, 'weir', requestBody)).toEqual(
      sized(request),
    );
  });

  it('decodes and encodes the response', () => {
    const decoded = decodeResponseFrame(AlterPartitionReassignments, 0, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.body).toEqual(responseBody);
    expect(encodeResponseFrame(AlterPartitionReassignments, 0, 7, responseBody)).toEqual(sized(response));
  });
});

describe('ListPartitionReassignments v0 (flexible only)', () => {
  const request = requestV2(46, 0, 8, 'weir', bytes(i32(60000), compactCount(-1), noTags));
  const requestBody = { timeoutMs: 60000, topics: null };
  const response = responseV1(
    8,
    bytes(
      i32(0),
      i16(0),
      compactStr(null),
      compactCount(1),
      compactStr('orders'),
      compactCount(1),
      i32(0),
      compactCount(4),
      i32(2),
      i32(3),
      i32(4),
      i32(1),
      compactCount(1),
      i32(4),
      compactCount(1),
      i32(1),
      noTags,
      noTags,
      noTags,
    ),
  );
  const responseBody = {
    throttleTimeMs: 0,
    errorCode: 0,
    errorMessage: null,
    topics: [
      {
        name: 'orders',
        partitions: [
          { partitionIndex: 0, replicas: [2, 3, 4, 1], addingReplicas: [4], removingReplicas: [1] },
        ],
      },
    ],
  };

  it('decodes and encodes a request for every reassignment (null topics)', () => {
    expect(decodedRequest(request).body).toEqual(requestBody);
    expect(encodeRequestFrame(ListPartitionReassignments, 0, 8, 'weir', requestBody)).toEqual(sized(request));
  });

  it('decodes and encodes the response', () => {
    const decoded = decodeResponseFrame(ListPartitionReassignments, 0, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.body).toEqual(responseBody);
    expect(encodeResponseFrame(ListPartitionReassignments, 0, 8, responseBody)).toEqual(sized(response));
  });
});

describe('ElectLeaders v0–v2', () => {
  const topics = { topicPartitions: [{ topic: 'orders', partitions: [0] }], timeoutMs: 5000 };

  it('v0 has no election type (preferred) and no top-level error code', () => {
    const request = requestV1(43, 0, 9, 'weir', bytes(count(1), str('orders'), count(1), i32(0), i32(5000)));
    expect(decodedRequest(request).body).toEqual({ electionType: 0, ...topics });
    const response = responseV0(
      9,
      bytes(i32(0), count(1), str('orders'), count(1), i32(0), i16(84), str(null)),
    );
    const body = {
      throttleTimeMs: 0,
      errorCode: 0,
      replicaElectionResults: [
        { topic: 'orders', partitionResult: [{ partitionId: 0, errorCode: 84, errorMessage: null }] },
      ],
    };
    const decoded = decodeResponseFrame(ElectLeaders, 0, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.body).toEqual(body);
    expect(encodeResponseFrame(ElectLeaders, 0, 9, body)).toEqual(sized(response));
  });

  it('v1 puts the election type first', () => {
    const request = requestV1(
      43,
      1,
      9,
      'weir',
      bytes(i8(1), count(1), str('orders'), count(1), i32(0), i32(5000)),
    );
    const body = { electionType: 1, ...topics };
    expect(decodedRequest(request).body).toEqual(body);
    expect(encodeRequestFrame(ElectLeaders, 1, 9, 'weir', body)).toEqual(sized(request));
  });

  it('v2 is flexible and accepts null topic partitions (every partition)', () => {
    const request = requestV2(43, 2, 9, 'weir', bytes(i8(0), compactCount(-1), i32(5000), noTags));
    const body = { electionType: 0, topicPartitions: null, timeoutMs: 5000 };
    expect(decodedRequest(request).body).toEqual(body);
    expect(encodeRequestFrame(ElectLeaders, 2, 9, 'weir', body)).toEqual(sized(request));
  });
});
