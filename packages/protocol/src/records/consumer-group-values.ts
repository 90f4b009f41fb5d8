import { Reader } from '../codec/reader';
import { Writer } from '../codec/writer';
import { field, struct } from '../schema/struct';
import { array, type InputOf, int8, int32, string, uuid, type ValueOf, type WireType } from '../schema/types';

/**
 * The values of the consumer-protocol (KIP-848) records of `__consumer_offsets`, in the layouts
 * Kafka 3.9 writes (its group-coordinator message definitions ConsumerGroup*Value, all at version
 * 0): an int16 version, then the fields in the flexible encoding (compact strings and arrays, a
 * tagged-field section closing every struct). The keys are the broker's business
 * (apps/broker/src/group/offsets-records.ts).
 */

const topicPartitions = struct({
  topicId: field(uuid),
  partitions: field(array(int32)),
});

/** ConsumerGroupMetadataValue: the group epoch. */
export const ConsumerGroupMetadataValue = struct({ epoch: field(int32) });

/** ConsumerGroupPartitionMetadataValue: the subscribed topics as the coordinator last saw them. */
export const ConsumerGroupPartitionMetadataValue = struct({
  topics: field(
    array(
      struct({
        topicId: field(uuid),
        topicName: field(string),
        numPartitions: field(int32),
        partitionMetadata: field(array(struct({ partition: field(int32), racks: field(array(string)) }))),
      }),
    ),
  ),
});

/** ConsumerGroupMemberMetadataValue: what a member said about itself (its classic metadata, tag 0, is never written). */
export const ConsumerGroupMemberMetadataValue = struct({
  instanceId: field(string, { nullable: '0+' }),
  rackId: field(string, { nullable: '0+' }),
  clientId: field(string),
  clientHost: field(string),
  subscribedTopicNames: field(array(string)),
  subscribedTopicRegex: field(string, { nullable: '0+' }),
  rebalanceTimeoutMs: field(int32, { default: -1 }),
  serverAssignor: field(string, { nullable: '0+' }),
});

/** ConsumerGroupTargetAssignmentMetadataValue: the epoch of the target assignment. */
export const ConsumerGroupTargetAssignmentMetadataValue = struct({ assignmentEpoch: field(int32) });

/** ConsumerGroupTargetAssignmentMemberValue: one member's target partitions. */
export const ConsumerGroupTargetAssignmentMemberValue = struct({
  topicPartitions: field(array(topicPartitions)),
});

/** ConsumerGroupCurrentMemberAssignmentValue: a member's epochs, reconciliation state and partitions. */
export const ConsumerGroupCurrentMemberAssignmentValue = struct({
  memberEpoch: field(int32),
  previousMemberEpoch: field(int32),
  state: field(int8),
  assignedPartitions: field(array(topicPartitions)),
  partitionsPendingRevocation: field(array(topicPartitions)),
});

/** The only value version Kafka 3.9 defines for these records. */
const VALUE_VERSION = 0;

export function encodeConsumerGroupValue<W extends WireType<unknown, unknown>>(
  type: W,
  value: InputOf<W>,
): Buffer {
  const writer = new Writer(128);
  writer.int16(VALUE_VERSION);
  type.write(writer, value, true, VALUE_VERSION);
  return Buffer.from(writer.finish());
}

/**
 * Decodes a value, or returns undefined for a version this codec does not know (a newer writer);
 * throws a DecodeError for bytes that do not match the layout.
 */
export function decodeConsumerGroupValue<W extends WireType<unknown, unknown>>(
  type: W,
  bytes: Uint8Array,
): ValueOf<W> | undefined {
  const reader = new Reader(bytes);
  if (reader.int16() !== VALUE_VERSION) return undefined;
  const value = type.read(reader, true, VALUE_VERSION) as ValueOf<W>;
  reader.expectEnd('a consumer group record value');
  return value;
}
