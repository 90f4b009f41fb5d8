import { Reader } from '@weir/protocol';

/**
 * Reading the metadata and assignments of Kafka's standard consumer protocol (protocol type
 * "consumer"), which the broker otherwise treats as opaque bytes. Used for operator views
 * (describeGroup, lag) and for knowing which topics a group consumes (OffsetDelete, expiry).
 *
 * ConsumerProtocolSubscription: int16 version, [string topic], nullable bytes user data, then from
 * v1 the owned partitions [string topic, [int32]], from v2 an int32 generation and from v3 a
 * nullable string rack. ConsumerProtocolAssignment: int16 version, [string topic, [int32]],
 * nullable bytes user data; v1–v3 add nothing we need. Later fields are ignored, so a newer
 * client's bytes still decode.
 */

export interface TopicPartitions {
  topic: string;
  partitions: number[];
}

export interface ConsumerSubscription {
  version: number;
  topics: string[];
  /** Partitions the member says it owns (v1+, cooperative rebalancing); empty before v1. */
  ownedPartitions: TopicPartitions[];
}

export interface ConsumerAssignment {
  version: number;
  partitions: TopicPartitions[];
}

/** The subscription in a member's metadata, or undefined when the bytes are not a subscription. */
export function decodeConsumerSubscription(metadata: Uint8Array): ConsumerSubscription | undefined {
  if (metadata.length < 2) return undefined;
  try {
    const reader = new Reader(metadata);
    const version = reader.int16();
    if (version < 0) return undefined;
    const topics = readStrings(reader);
    reader.nullableBytes();
    const ownedPartitions = version >= 1 && reader.remaining > 0 ? readTopicPartitions(reader) : [];
    return { version, topics, ownedPartitions };
  } catch {
    return undefined;
  }
}

/**
 * The partitions in an assignment. Empty bytes (a member the leader gave nothing) is an empty
 * assignment; undefined means the bytes are not a consumer assignment.
 */
export function decodeConsumerAssignment(assignment: Uint8Array): ConsumerAssignment | undefined {
  if (assignment.length === 0) return { version: 0, partitions: [] };
  try {
    const reader = new Reader(assignment);
    const version = reader.int16();
    if (version < 0) return undefined;
    const partitions = readTopicPartitions(reader);
    return { version, partitions };
  } catch {
    return undefined;
  }
}

function readStrings(reader: Reader): string[] {
  const count = reader.arrayLength() ?? 0;
  const values: string[] = [];
  for (let index = 0; index < count; index++) values.push(reader.string());
  return values;
}

function readTopicPartitions(reader: Reader): TopicPartitions[] {
  const count = reader.arrayLength() ?? 0;
  const result: TopicPartitions[] = [];
  for (let index = 0; index < count; index++) {
    const topic = reader.string();
    const partitionCount = reader.arrayLength() ?? 0;
    const partitions: number[] = [];
    for (let partition = 0; partition < partitionCount; partition++) partitions.push(reader.int32());
    result.push({ topic, partitions });
  }
  return result;
}
