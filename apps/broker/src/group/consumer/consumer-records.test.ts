import { describe, expect, it } from 'vitest';
import {
  type CoordinatorRecord,
  decodeCoordinatorRecord,
  encodeCoordinatorRecord,
  isOutdatedCoordinatorRecord,
} from '../offsets-records';

const TOPIC = '0b7c1a2e-3f4d-4e5f-8a6b-7c8d9eafb0c1';

const RECORDS: CoordinatorRecord[] = [
  { kind: 'consumer-group-epoch', groupId: 'g', value: { epoch: 7 } },
  {
    kind: 'consumer-subscription-metadata',
    groupId: 'g',
    value: { topics: [{ topicId: TOPIC, topicName: 'orders', numPartitions: 6 }] },
  },
  {
    kind: 'consumer-member',
    groupId: 'g',
    memberId: 'm-1',
    value: {
      instanceId: 'i-1',
      rackId: null,
      clientId: 'c',
      clientHost: '/127.0.0.1',
      subscribedTopicNames: ['orders', 'payments'],
      rebalanceTimeoutMs: 30_000,
      serverAssignor: 'range',
    },
  },
  { kind: 'consumer-target-epoch', groupId: 'g', value: { assignmentEpoch: 6 } },
  {
    kind: 'consumer-target-member',
    groupId: 'g',
    memberId: 'm-1',
    value: { topicPartitions: [{ topicId: TOPIC, partitions: [0, 2] }] },
  },
  {
    kind: 'consumer-current-assignment',
    groupId: 'g',
    memberId: 'm-1',
    value: {
      memberEpoch: 6,
      previousMemberEpoch: 5,
      state: 1,
      assignedPartitions: [{ topicId: TOPIC, partitions: [0] }],
      partitionsPendingRevocation: [{ topicId: TOPIC, partitions: [4] }],
    },
  },
];

describe('consumer-protocol records of __consumer_offsets', () => {
  it.each(RECORDS)('round-trips $kind and its tombstone under its Kafka key version', (record) => {
    const { key, value } = encodeCoordinatorRecord(record);
    expect(decodeCoordinatorRecord(key, value)).toEqual(record);
    const tombstone = { ...record, value: null } as CoordinatorRecord;
    const encodedTombstone = encodeCoordinatorRecord(tombstone);
    expect(encodedTombstone.value).toBeNull();
    expect(decodeCoordinatorRecord(encodedTombstone.key, null)).toEqual(tombstone);
    // Kafka 3.9's key versions: 3 group epoch … 8 current member assignment.
    const versions: Record<string, number> = {
      'consumer-group-epoch': 3,
      'consumer-subscription-metadata': 4,
      'consumer-member': 5,
      'consumer-target-epoch': 6,
      'consumer-target-member': 7,
      'consumer-current-assignment': 8,
    };
    expect(key.readInt16BE(0)).toBe(versions[record.kind]);
    // Their values are Kafka's version 0, which is not Weir's old layout.
    expect(value!.readInt16BE(0)).toBe(0);
    expect(isOutdatedCoordinatorRecord(key, value)).toBe(false);
  });

  it('writes ConsumerGroupMetadataValue as Kafka lays it out: version, epoch, empty tags', () => {
    const { key, value } = encodeCoordinatorRecord(RECORDS[0]!);
    expect(key.toString('hex')).toBe('000300016' + '7');
    expect(value!.toString('hex')).toBe('0000' + '00000007' + '00');
  });

  it('skips a value version it does not know', () => {
    const { key } = encodeCoordinatorRecord(RECORDS[0]!);
    expect(decodeCoordinatorRecord(key, Buffer.from('0001000000070' + '0', 'hex'))).toBeUndefined();
  });
});
