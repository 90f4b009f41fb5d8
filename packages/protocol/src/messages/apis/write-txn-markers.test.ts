import { describe, expect, it } from 'vitest';
import {
  bytes,
  count,
  i8,
  i16,
  i32,
  i64,
  requestV1,
  responseV0,
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
import { WriteTxnMarkers } from './write-txn-markers';

/**
 * WriteTxnMarkers v0 (no client sends it; brokers do), assembled by hand from Kafka's message
 * definition: request header v1, then per marker producer id, epoch, result (a boolean byte), the
 * topics and their partition indexes, and the coordinator epoch last.
 */
describe('WriteTxnMarkers v0', () => {
  const request = requestV1(
    27,
    0,
    12,
    'weir-broker-1',
    bytes(
      count(1),
      i64(4000n),
      i16(3),
      i8(1), // transactionResult: COMMIT
      count(1),
      str('orders'),
      count(2),
      i32(0),
      i32(5),
      i32(7), // coordinatorEpoch
    ),
  );
  const requestBody = {
    markers: [
      {
        producerId: 4000n,
        producerEpoch: 3,
        transactionResult: true,
        topics: [{ name: 'orders', partitionIndexes: [0, 5] }],
        coordinatorEpoch: 7,
      },
    ],
  };
  const response = responseV0(
    12,
    bytes(count(1), i64(4000n), count(1), str('orders'), count(2), i32(0), i16(0), i32(5), i16(6)),
  );
  const responseBody = {
    markers: [
      {
        producerId: 4000n,
        topics: [
          {
            name: 'orders',
            partitions: [
              { partitionIndex: 0, errorCode: 0 },
              { partitionIndex: 5, errorCode: 6 },
            ],
          },
        ],
      },
    ],
  };

  it('decodes and encodes the hand-assembled request', () => {
    const decoded = decodeRequestFrame(request, apiByKey);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.header).toEqual({
      apiKey: 27,
      apiVersion: 0,
      correlationId: 12,
      clientId: 'weir-broker-1',
    });
    expect(decoded.body).toEqual(requestBody);
    expect(encodeRequestFrame(WriteTxnMarkers, 0, 12, 'weir-broker-1', requestBody)).toEqual(sized(request));
  });

  it('decodes and encodes the hand-assembled response', () => {
    const decoded = decodeResponseFrame(WriteTxnMarkers, 0, response);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.body).toEqual(responseBody);
    expect(encodeResponseFrame(WriteTxnMarkers, 0, 12, responseBody)).toEqual(sized(response));
  });
});
