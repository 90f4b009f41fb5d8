import { Reader } from '../codec/reader';
import { Writer } from '../codec/writer';

/**
 * Kafka's standard consumer protocol (protocol type "consumer"): the bytes a member puts in
 * JoinGroup (its subscription) and the leader hands out in SyncGroup (assignments). The broker
 * treats them as opaque; clients, admin tools and the broker's operator views read them.
 *
 * ConsumerProtocolSubscription: int16 version, [string topic], nullable bytes user data, then from
 * v1 the owned partitions [string topic, [int32]], from v2 an int32 generation and from v3 a
 * nullable string rack. ConsumerProtocolAssignment: int16 version, [string topic, [int32]],
 * nullable bytes user data; v1–v3 add nothing here. Decoding ignores later fields, so a newer
 * client's bytes still decode. Encoding writes v0 or v1 (what this SDK sends).
 */

export interface TopicPartitions {
  readonly topic: string;
  readonly partitions: readonly number[];
}

export interface ConsumerSubscription {
  readonly version: number;
  readonly topics: readonly string[];
  readonly userData: Uint8Array | null;
  /** Partitions the member says it owns (v1+); empty before v1. */
  readonly ownedPartitions: readonly TopicPartitions[];
}

export interface ConsumerAssignment {
  readonly version: number;
  readonly partitions: readonly TopicPartitions[];
  readonly userData: Uint8Array | null;
}

export function encodeConsumerSubscription(subscription: ConsumerSubscription): Buffer {
  const writer = new Writer();
  writer.int16(subscription.version);
  writer.arrayLength(subscription.topics.length);
  for (const topic of subscription.topics) writer.string(topic);
  writer.nullableBytes(subscription.userData);
  if (subscription.version >= 1) writeTopicPartitions(writer, subscription.ownedPartitions);
  return writer.finish();
}

export function encodeConsumerAssignment(assignment: ConsumerAssignment): Buffer {
  const writer = new Writer();
  writer.int16(assignment.version);
  writeTopicPartitions(writer, assignment.partitions);
  writer.nullableBytes(assignment.userData);
  return writer.finish();
}

/** The subscription in a member's metadata, or undefined when the bytes are not a subscription. */
export function decodeConsumerSubscription(metadata: Uint8Array): ConsumerSubscription | undefined {
  if (metadata.length < 2) return undefined;
  try {
    const reader = new Reader(metadata);
    const version = reader.int16();
    if (version < 0) return undefined;
    const topics = readStrings(reader);
    const userData = reader.nullableBytes();
    const ownedPartitions = version >= 1 && reader.remaining > 0 ? readTopicPartitions(reader) : [];
    return { version, topics, userData, ownedPartitions };
  } catch {
    return undefined;
  }
}

/**
 * The partitions in an assignment. Empty bytes (a member the leader gave nothing) is an empty
 * assignment; undefined means the bytes are not a consumer assignment.
 */
export function decodeConsumerAssignment(assignment: Uint8Array): ConsumerAssignment | undefined {
  if (assignment.length === 0) return { version: 0, partitions: [], userData: null };
  try {
    const reader = new Reader(assignment);
    const version = reader.int16();
    if (version < 0) return undefined;
    const partitions = readTopicPartitions(reader);
    const userData = reader.remaining >= 4 ? reader.nullableBytes() : null;
    return { version, partitions, userData };
  } catch {
    return undefined;
  }
}

function writeTopicPartitions(writer: Writer, list: readonly TopicPartitions[]): void {
  writer.arrayLength(list.length);
  for (const entry of list) {
    writer.string(entry.topic);
    writer.arrayLength(entry.partitions.length);
    for (const partition of entry.partitions) writer.int32(partition);
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
