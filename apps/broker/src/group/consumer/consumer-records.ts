import {
  ConsumerGroupCurrentMemberAssignmentValue,
  ConsumerGroupMemberMetadataValue,
  ConsumerGroupMetadataValue,
  ConsumerGroupPartitionMetadataValue,
  ConsumerGroupTargetAssignmentMemberValue,
  ConsumerGroupTargetAssignmentMetadataValue,
  decodeConsumerGroupValue,
  encodeConsumerGroupValue,
  type Reader,
  Writer,
} from '@weir/protocol';

/**
 * The consumer-protocol (KIP-848) records of `__consumer_offsets`, with Kafka 3.9's keys: an int16
 * key version, which says what the record is, then the group id (and the member id where the
 * record is a member's):
 *   3 ConsumerGroupMetadata (group epoch)          6 ConsumerGroupTargetAssignmentMetadata
 *   4 ConsumerGroupPartitionMetadata               7 ConsumerGroupTargetAssignmentMember (+ member)
 *   5 ConsumerGroupMemberMetadata (+ member)       8 ConsumerGroupCurrentMemberAssignment (+ member)
 * The values are Kafka's flexible version-0 layouts (@weir/protocol's consumer-group-values.ts);
 * a null value is a tombstone. Records of one group are written together, after each change, so a
 * replay rebuilds the group as it was (consumer-group-loader.ts).
 */

export interface TopicPartitionsValue {
  topicId: string;
  partitions: number[];
}

export interface ConsumerMemberRecordValue {
  instanceId: string | null;
  rackId: string | null;
  clientId: string;
  clientHost: string;
  subscribedTopicNames: string[];
  rebalanceTimeoutMs: number;
  serverAssignor: string | null;
}

export interface CurrentAssignmentRecordValue {
  memberEpoch: number;
  previousMemberEpoch: number;
  /** Kafka's MemberState byte. */
  state: number;
  assignedPartitions: TopicPartitionsValue[];
  partitionsPendingRevocation: TopicPartitionsValue[];
}

export interface SubscriptionMetadataRecordValue {
  topics: { topicId: string; topicName: string; numPartitions: number }[];
}

export type ConsumerGroupRecord =
  | { kind: 'consumer-group-epoch'; groupId: string; value: { epoch: number } | null }
  | { kind: 'consumer-subscription-metadata'; groupId: string; value: SubscriptionMetadataRecordValue | null }
  | { kind: 'consumer-member'; groupId: string; memberId: string; value: ConsumerMemberRecordValue | null }
  | { kind: 'consumer-target-epoch'; groupId: string; value: { assignmentEpoch: number } | null }
  | {
      kind: 'consumer-target-member';
      groupId: string;
      memberId: string;
      value: { topicPartitions: TopicPartitionsValue[] } | null;
    }
  | {
      kind: 'consumer-current-assignment';
      groupId: string;
      memberId: string;
      value: CurrentAssignmentRecordValue | null;
    };

const KEY_VERSIONS: Readonly<Record<ConsumerGroupRecord['kind'], number>> = {
  'consumer-group-epoch': 3,
  'consumer-subscription-metadata': 4,
  'consumer-member': 5,
  'consumer-target-epoch': 6,
  'consumer-target-member': 7,
  'consumer-current-assignment': 8,
};

/** Whether a key version is one of the consumer-protocol records. */
export function isConsumerGroupKeyVersion(keyVersion: number): boolean {
  return keyVersion >= 3 && keyVersion <= 8;
}

export function encodeConsumerGroupRecord(record: ConsumerGroupRecord): {
  key: Buffer;
  value: Buffer | null;
} {
  const key = new Writer(64).int16(KEY_VERSIONS[record.kind]).string(record.groupId);
  if ('memberId' in record) key.string(record.memberId);
  return { key: Buffer.from(key.finish()), value: record.value === null ? null : encodeValue(record) };
}

function encodeValue(record: ConsumerGroupRecord): Buffer {
  switch (record.kind) {
    case 'consumer-group-epoch':
      return encodeConsumerGroupValue(ConsumerGroupMetadataValue, record.value!);
    case 'consumer-subscription-metadata':
      return encodeConsumerGroupValue(ConsumerGroupPartitionMetadataValue, {
        // Weir does not place replicas by rack for assignment, so no partition racks are stored.
        topics: record.value!.topics.map((topic) => ({ ...topic, partitionMetadata: [] })),
      });
    case 'consumer-member':
      return encodeConsumerGroupValue(ConsumerGroupMemberMetadataValue, {
        ...record.value!,
        subscribedTopicRegex: null,
      });
    case 'consumer-target-epoch':
      return encodeConsumerGroupValue(ConsumerGroupTargetAssignmentMetadataValue, record.value!);
    case 'consumer-target-member':
      return encodeConsumerGroupValue(ConsumerGroupTargetAssignmentMemberValue, record.value!);
    case 'consumer-current-assignment':
      return encodeConsumerGroupValue(ConsumerGroupCurrentMemberAssignmentValue, record.value!);
  }
}

/**
 * Decodes the rest of a consumer-protocol key (after its version) and its value. Returns undefined
 * for a value version this broker does not know (a newer writer).
 */
export function decodeConsumerGroupRecord(
  keyVersion: number,
  key: Reader,
  value: Uint8Array | null,
): ConsumerGroupRecord | undefined {
  const groupId = key.string();
  switch (keyVersion) {
    case 3: {
      key.expectEnd('a consumer group metadata key');
      if (value === null) return { kind: 'consumer-group-epoch', groupId, value: null };
      const decoded = decodeConsumerGroupValue(ConsumerGroupMetadataValue, value);
      return decoded && { kind: 'consumer-group-epoch', groupId, value: decoded };
    }
    case 4: {
      key.expectEnd('a consumer group partition metadata key');
      if (value === null) return { kind: 'consumer-subscription-metadata', groupId, value: null };
      const decoded = decodeConsumerGroupValue(ConsumerGroupPartitionMetadataValue, value);
      return (
        decoded && {
          kind: 'consumer-subscription-metadata',
          groupId,
          value: {
            topics: decoded.topics.map(({ topicId, topicName, numPartitions }) => ({
              topicId,
              topicName,
              numPartitions,
            })),
          },
        }
      );
    }
    case 6: {
      key.expectEnd('a consumer group target assignment metadata key');
      if (value === null) return { kind: 'consumer-target-epoch', groupId, value: null };
      const decoded = decodeConsumerGroupValue(ConsumerGroupTargetAssignmentMetadataValue, value);
      return decoded && { kind: 'consumer-target-epoch', groupId, value: decoded };
    }
    default:
      return decodeMemberRecord(keyVersion, groupId, key, value);
  }
}

function decodeMemberRecord(
  keyVersion: number,
  groupId: string,
  key: Reader,
  value: Uint8Array | null,
): ConsumerGroupRecord | undefined {
  const memberId = key.string();
  key.expectEnd('a consumer group member key');
  switch (keyVersion) {
    case 5: {
      if (value === null) return { kind: 'consumer-member', groupId, memberId, value: null };
      const decoded = decodeConsumerGroupValue(ConsumerGroupMemberMetadataValue, value);
      if (!decoded) return undefined;
      const { subscribedTopicRegex: _regex, ...member } = decoded;
      return { kind: 'consumer-member', groupId, memberId, value: member };
    }
    case 7: {
      if (value === null) return { kind: 'consumer-target-member', groupId, memberId, value: null };
      const decoded = decodeConsumerGroupValue(ConsumerGroupTargetAssignmentMemberValue, value);
      return decoded && { kind: 'consumer-target-member', groupId, memberId, value: decoded };
    }
    case 8: {
      if (value === null) return { kind: 'consumer-current-assignment', groupId, memberId, value: null };
      const decoded = decodeConsumerGroupValue(ConsumerGroupCurrentMemberAssignmentValue, value);
      return decoded && { kind: 'consumer-current-assignment', groupId, memberId, value: decoded };
    }
    default:
      return undefined;
  }
}
