import { decodeConsumerAssignment, decodeConsumerSubscription } from '@weir/protocol';
import fc from 'fast-check';
import { AssignerProtocol } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { type CoordinatorRecord, decodeCoordinatorRecord, encodeCoordinatorRecord } from './offsets-records';

function roundTrip(record: CoordinatorRecord): CoordinatorRecord | undefined {
  const { key, value } = encodeCoordinatorRecord(record);
  return decodeCoordinatorRecord(key, value);
}

describe('__consumer_offsets records', () => {
  it('round-trips offset records and their tombstones', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.record({
          offset: fc.integer({ min: -1, max: Number.MAX_SAFE_INTEGER }),
          leaderEpoch: fc.integer({ min: -1, max: 2 ** 31 - 1 }),
          metadata: fc.option(fc.string(), { nil: null }),
          commitTimestampMs: fc.integer({ min: 0, max: 2 ** 50 }),
          expireTimestampMs: fc.integer({ min: -1, max: 2 ** 50 }),
        }),
        (groupId, topic, partition, value) => {
          const record: CoordinatorRecord = { kind: 'offset', groupId, topic, partition, value };
          expect(roundTrip(record)).toEqual(record);
          expect(roundTrip({ ...record, value: null })).toEqual({ ...record, value: null });
        },
      ),
    );
  });

  it('round-trips group metadata with members, and its tombstone', () => {
    const record: CoordinatorRecord = {
      kind: 'group',
      groupId: 'orders',
      value: {
        protocolType: 'consumer',
        generationId: 7,
        protocolName: 'range',
        leaderId: 'a-1',
        stateTimestampMs: 1_700_000_000_000,
        members: [
          {
            memberId: 'a-1',
            groupInstanceId: null,
            clientId: 'a',
            clientHost: '127.0.0.1',
            rebalanceTimeoutMs: 60_000,
            sessionTimeoutMs: 30_000,
            subscription: Buffer.from([0, 0, 0, 0, 0, 1]),
            assignment: Buffer.alloc(0),
          },
          {
            memberId: 'b-2',
            groupInstanceId: 'instance-b',
            clientId: 'b',
            clientHost: '::1',
            rebalanceTimeoutMs: 1,
            sessionTimeoutMs: 2,
            subscription: Buffer.alloc(0),
            assignment: Buffer.from('xyz'),
          },
        ],
      },
    };
    expect(roundTrip(record)).toEqual(record);
    expect(roundTrip({ kind: 'group', groupId: 'orders', value: null })).toEqual({
      kind: 'group',
      groupId: 'orders',
      value: null,
    });
    const empty: CoordinatorRecord = {
      kind: 'group',
      groupId: 'e',
      value: {
        protocolType: null,
        generationId: 0,
        protocolName: null,
        leaderId: null,
        stateTimestampMs: 5,
        members: [],
      },
    };
    expect(roundTrip(empty)).toEqual(empty);
  });

  it('skips keys and values of versions it does not know, and rejects bytes that lie', () => {
    expect(decodeCoordinatorRecord(Buffer.from([0, 9, 0, 0]), Buffer.alloc(2))).toBeUndefined();
    const { key } = encodeCoordinatorRecord({
      kind: 'offset',
      groupId: 'g',
      topic: 't',
      partition: 0,
      value: null,
    });
    expect(decodeCoordinatorRecord(key, Buffer.from([0, 5, 1, 2]))).toBeUndefined();
    expect(() => decodeCoordinatorRecord(key.subarray(0, key.length - 1), null)).toThrow();
    expect(() => decodeCoordinatorRecord(Buffer.concat([key, Buffer.from([1])]), null)).toThrow();
  });
});

describe('consumer protocol', () => {
  it('reads what kafkajs writes', () => {
    const metadata = AssignerProtocol.MemberMetadata.encode({
      version: 0,
      topics: ['a', 'b'],
      userData: Buffer.from('u'),
    });
    const subscription = decodeConsumerSubscription(metadata);
    expect(subscription).toMatchObject({ version: 0, topics: ['a', 'b'], ownedPartitions: [] });
    expect(Buffer.from(subscription!.userData!).toString()).toBe('u');
    const assigned = AssignerProtocol.MemberAssignment.encode({
      version: 1,
      assignment: { a: [0, 2], b: [1] },
      userData: Buffer.alloc(0),
    });
    expect(decodeConsumerAssignment(assigned)).toMatchObject({
      version: 1,
      partitions: [
        { topic: 'a', partitions: [0, 2] },
        { topic: 'b', partitions: [1] },
      ],
    });
  });

  it('treats empty assignment bytes as no partitions and garbage as unreadable', () => {
    expect(decodeConsumerAssignment(Buffer.alloc(0))).toMatchObject({ version: 0, partitions: [] });
    expect(decodeConsumerAssignment(Buffer.from([0, 0, 0, 0, 0, 9]))).toBeUndefined();
    expect(decodeConsumerSubscription(Buffer.alloc(0))).toBeUndefined();
    expect(decodeConsumerSubscription(Buffer.from([0xff, 0xff]))).toBeUndefined();
  });
});
