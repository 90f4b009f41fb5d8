import { decodeConsumerAssignment, decodeConsumerSubscription } from '@weir/protocol';
import fc from 'fast-check';
import { AssignerProtocol } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import {
  type CoordinatorRecord,
  decodeCoordinatorRecord,
  encodeCoordinatorRecord,
  isOutdatedCoordinatorRecord,
} from './offsets-records';

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
        // The coordinator stores no metadata as "" (as Kafka does), and an expiry only comes from
        // OffsetCommit v2–4, which carry no leader epoch: Kafka's v1 value has no room for one.
        fc.oneof(
          fc.record({
            offset: fc.integer({ min: -1, max: Number.MAX_SAFE_INTEGER }),
            leaderEpoch: fc.integer({ min: -1, max: 2 ** 31 - 1 }),
            metadata: fc.string(),
            commitTimestampMs: fc.integer({ min: 0, max: 2 ** 50 }),
            expireTimestampMs: fc.constant(-1),
          }),
          fc.record({
            offset: fc.integer({ min: -1, max: Number.MAX_SAFE_INTEGER }),
            leaderEpoch: fc.constant(-1),
            metadata: fc.string(),
            commitTimestampMs: fc.integer({ min: 0, max: 2 ** 50 }),
            expireTimestampMs: fc.integer({ min: 0, max: 2 ** 50 }),
          }),
        ),
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

  it("writes Kafka's OffsetCommitKey v1 and OffsetCommitValue v3 (v1 with an expiry)", () => {
    const key = Buffer.from([0, 1, 0, 1, 0x67, 0, 2, 0x74, 0x31, 0, 0, 0, 7]); // v1, "g", "t1", 7
    const current = encodeCoordinatorRecord({
      kind: 'offset',
      groupId: 'g',
      topic: 't1',
      partition: 7,
      value: { offset: 42, leaderEpoch: 3, metadata: 'm', commitTimestampMs: 1000, expireTimestampMs: -1 },
    });
    expect(current.key).toEqual(key);
    // v3: offset int64, leader epoch int32, metadata string, commit timestamp int64.
    expect(current.value!.toString('hex')).toBe(
      `0003${'000000000000002a'}${'00000003'}00016d${'00000000000003e8'}`,
    );
    const expiring = encodeCoordinatorRecord({
      kind: 'offset',
      groupId: 'g',
      topic: 't1',
      partition: 7,
      value: { offset: 42, leaderEpoch: -1, metadata: '', commitTimestampMs: 1000, expireTimestampMs: 2000 },
    });
    // v1: offset int64, metadata string, commit timestamp int64, expire timestamp int64.
    expect(expiring.value!.toString('hex')).toBe(
      `0001${'000000000000002a'}0000${'00000000000003e8'}${'00000000000007d0'}`,
    );
    expect(isOutdatedCoordinatorRecord(current.key, current.value)).toBe(false);
    expect(isOutdatedCoordinatorRecord(expiring.key, expiring.value)).toBe(false);
    // Kafka's v2 (no leader epoch, no expiry) and key version 0 are read too.
    const v2 = Buffer.from(`0002${'000000000000002a'}0000${'00000000000003e8'}`, 'hex');
    const key0 = Buffer.from(key);
    key0[1] = 0;
    expect(decodeCoordinatorRecord(key0, v2)).toEqual({
      kind: 'offset',
      groupId: 'g',
      topic: 't1',
      partition: 7,
      value: { offset: 42, leaderEpoch: -1, metadata: '', commitTimestampMs: 1000, expireTimestampMs: -1 },
    });
  });

  it('writes Kafka\'s GroupMetadataKey v2 and GroupMetadataValue v3, a missing protocol type as ""', () => {
    const { key, value } = encodeCoordinatorRecord({
      kind: 'group',
      groupId: 'g',
      value: {
        protocolType: null,
        generationId: 0,
        protocolName: null,
        leaderId: null,
        stateTimestampMs: 5,
        members: [],
      },
    });
    expect(key.toString('hex')).toBe('0002000167');
    expect(value!.toString('hex')).toBe(`0003000000000000ffffffff${'0000000000000005'}00000000`);
    expect(decodeCoordinatorRecord(key, value)).toMatchObject({ value: { protocolType: null } });
  });

  it("reads Weir's earlier layout (value version 0) and calls it outdated", () => {
    const { key } = encodeCoordinatorRecord({
      kind: 'offset',
      groupId: 'g',
      topic: 't1',
      partition: 7,
      value: null,
    });
    // offset, leader epoch, nullable metadata (null), commit timestamp, expire timestamp (-1).
    const offsetValue = Buffer.from(
      `0000${'000000000000002a'}${'00000003'}ffff${'00000000000003e8'}${'ffffffffffffffff'}`,
      'hex',
    );
    expect(isOutdatedCoordinatorRecord(key, offsetValue)).toBe(true);
    expect(isOutdatedCoordinatorRecord(key, null)).toBe(false);
    expect(decodeCoordinatorRecord(key, offsetValue)).toMatchObject({
      value: { offset: 42, leaderEpoch: 3, metadata: '', commitTimestampMs: 1000, expireTimestampMs: -1 },
    });
    // nullable protocol type "consumer", generation 2, protocol "range", leader null, state time 9, one member.
    const member = `0001${'61'}ffff0001${'63'}0001${'68'}${'00000064'}${'000000c8'}${'00000001'}01${'00000000'}`;
    const groupValue = Buffer.from(
      `0000000863${'6f6e73756d6572'}${'00000002'}0005${'72616e6765'}ffff${'0000000000000009'}${'00000001'}${member}`,
      'hex',
    );
    const groupKey = encodeCoordinatorRecord({ kind: 'group', groupId: 'g', value: null }).key;
    expect(isOutdatedCoordinatorRecord(groupKey, groupValue)).toBe(true);
    expect(decodeCoordinatorRecord(groupKey, groupValue)).toEqual({
      kind: 'group',
      groupId: 'g',
      value: {
        protocolType: 'consumer',
        generationId: 2,
        protocolName: 'range',
        leaderId: null,
        stateTimestampMs: 9,
        members: [
          {
            memberId: 'a',
            groupInstanceId: null,
            clientId: 'c',
            clientHost: 'h',
            rebalanceTimeoutMs: 100,
            sessionTimeoutMs: 200,
            subscription: Buffer.from([1]),
            assignment: Buffer.alloc(0),
          },
        ],
      },
    });
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
