import { Reader, Writer } from '@weir/protocol';
import {
  type ConsumerGroupRecord,
  decodeConsumerGroupRecord,
  encodeConsumerGroupRecord,
  isConsumerGroupKeyVersion,
} from './consumer/consumer-records';

/**
 * The records of `__consumer_offsets` in Kafka's own layout (its OffsetCommitKey/Value and
 * GroupMetadataKey/Value schemas, the versions Kafka 3.9 writes), so tools that read the topic
 * (Burrow, lag exporters, checkpointers) parse them. Big-endian, Kafka's primitive encodings:
 * strings are int16 length + UTF-8 (-1 = null), bytes are int32 length + data.
 *
 * Key: an int16 version first, which says what the record is:
 *   0 or 1, committed offset (Kafka writes 1): string group, string topic, int32 partition
 *   2, group metadata:                         string group
 *   3–8, the consumer-protocol (KIP-848) group records: consumer/consumer-records.ts
 *
 * Value: null is a tombstone (the offset, or the whole group, was deleted); otherwise an int16
 * version first.
 *   Offset v3 (what Kafka writes): int64 offset, int32 leader epoch, string metadata,
 *     int64 commit timestamp ms. v1, written instead when the commit set an expiry (OffsetCommit
 *     v2–4's retention time, which never comes with a leader epoch): int64 offset, string metadata,
 *     int64 commit timestamp ms, int64 expire timestamp ms. v2 is v1 without the expiry.
 *   Group v3: string protocol type ("" for none), int32 generation, nullable string protocol,
 *     nullable string leader, int64 state timestamp ms, int32 member count, then per member:
 *     string member id, nullable string group instance id, string client id, string client host,
 *     int32 rebalance timeout ms, int32 session timeout ms, bytes subscription, bytes assignment.
 *     v1 and v2 lack the instance id, v1 also the state timestamp.
 *
 * For keys 0–2, value version 0 is read as the layout Weir wrote before it used Kafka's
 * (docs/kafka-compat.md §6.7): nothing else ever wrote version 0 under those keys into a Weir log, since Kafka's own version 0 values are
 * older than any broker a Weir directory could come from. Such records are "outdated": a shard that
 * replays one rewrites its state in the current layout, and compaction removes the old records.
 *
 * A later record for the same key replaces an earlier one, which compaction relies on. Keys and
 * values of a version this broker does not know decode to undefined and are skipped when loading
 * (a newer writer), instead of failing the whole load.
 */

const OFFSET_KEY_VERSION = 1;
const OFFSET_KEY_VERSION_0 = 0;
const GROUP_KEY_VERSION = 2;
const LEGACY_VALUE_VERSION = 0;
const OFFSET_VALUE_VERSION = 3;
const OFFSET_VALUE_VERSION_WITH_EXPIRY = 1;
const GROUP_VALUE_VERSION = 3;

export interface OffsetRecordValue {
  offset: number;
  leaderEpoch: number;
  metadata: string | null;
  commitTimestampMs: number;
  expireTimestampMs: number;
}

export interface GroupMemberRecord {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  rebalanceTimeoutMs: number;
  sessionTimeoutMs: number;
  subscription: Buffer;
  assignment: Buffer;
}

export interface GroupRecordValue {
  protocolType: string | null;
  generationId: number;
  protocolName: string | null;
  leaderId: string | null;
  stateTimestampMs: number;
  members: GroupMemberRecord[];
}

export type CoordinatorRecord =
  | { kind: 'offset'; groupId: string; topic: string; partition: number; value: OffsetRecordValue | null }
  | { kind: 'group'; groupId: string; value: GroupRecordValue | null }
  | ConsumerGroupRecord;

export function encodeCoordinatorRecord(record: CoordinatorRecord): { key: Buffer; value: Buffer | null } {
  const key = new Writer(64);
  if (record.kind === 'offset') {
    key.int16(OFFSET_KEY_VERSION).string(record.groupId).string(record.topic).int32(record.partition);
    return { key: copy(key), value: record.value === null ? null : encodeOffsetValue(record.value) };
  }
  if (record.kind === 'group') {
    key.int16(GROUP_KEY_VERSION).string(record.groupId);
    return { key: copy(key), value: record.value === null ? null : encodeGroupValue(record.value) };
  }
  return encodeConsumerGroupRecord(record);
}

function encodeOffsetValue(value: OffsetRecordValue): Buffer {
  const writer = new Writer(64);
  // Kafka stores no metadata as "", and so does the coordinator (group-offsets.ts).
  const metadata = value.metadata ?? '';
  if (value.expireTimestampMs !== -1) {
    writer
      .int16(OFFSET_VALUE_VERSION_WITH_EXPIRY)
      .int64(BigInt(value.offset))
      .string(metadata)
      .int64(BigInt(value.commitTimestampMs))
      .int64(BigInt(value.expireTimestampMs));
  } else {
    writer
      .int16(OFFSET_VALUE_VERSION)
      .int64(BigInt(value.offset))
      .int32(value.leaderEpoch)
      .string(metadata)
      .int64(BigInt(value.commitTimestampMs));
  }
  return copy(writer);
}

function encodeGroupValue(value: GroupRecordValue): Buffer {
  const writer = new Writer(256);
  writer
    .int16(GROUP_VALUE_VERSION)
    // Kafka's protocol type is not nullable: a group without one (offsets only) stores "".
    .string(value.protocolType ?? '')
    .int32(value.generationId)
    .nullableString(value.protocolName)
    .nullableString(value.leaderId)
    .int64(BigInt(value.stateTimestampMs))
    .int32(value.members.length);
  for (const member of value.members) {
    writer
      .string(member.memberId)
      .nullableString(member.groupInstanceId)
      .string(member.clientId)
      .string(member.clientHost)
      .int32(member.rebalanceTimeoutMs)
      .int32(member.sessionTimeoutMs)
      .bytes(member.subscription)
      .bytes(member.assignment);
  }
  return copy(writer);
}

/**
 * Whether a stored record is in the layout Weir wrote before Kafka's (an offset or group value of
 * version 0; keys never changed). Tombstones are the same in both. The consumer-protocol records
 * (keys 3–8) are Kafka's own at value version 0.
 */
export function isOutdatedCoordinatorRecord(key: Uint8Array, value: Uint8Array | null): boolean {
  if (key.length < 2 || ((key[0]! << 8) | key[1]!) > GROUP_KEY_VERSION) return false;
  return value !== null && value.length >= 2 && ((value[0]! << 8) | value[1]!) === LEGACY_VALUE_VERSION;
}

/**
 * Decodes one record. Returns undefined for a key type or value version this broker does not
 * know; throws a DecodeError for bytes that do not match their declared layout.
 */
export function decodeCoordinatorRecord(
  key: Uint8Array,
  value: Uint8Array | null,
): CoordinatorRecord | undefined {
  const reader = new Reader(key);
  const keyVersion = reader.int16();
  if (keyVersion === OFFSET_KEY_VERSION || keyVersion === OFFSET_KEY_VERSION_0) {
    const groupId = reader.string();
    const topic = reader.string();
    const partition = reader.int32();
    reader.expectEnd('an offset key');
    if (value === null) return { kind: 'offset', groupId, topic, partition, value: null };
    const decoded = decodeOffsetValue(value);
    return decoded && { kind: 'offset', groupId, topic, partition, value: decoded };
  }
  if (keyVersion === GROUP_KEY_VERSION) {
    const groupId = reader.string();
    reader.expectEnd('a group key');
    if (value === null) return { kind: 'group', groupId, value: null };
    const decoded = decodeGroupValue(value);
    return decoded && { kind: 'group', groupId, value: decoded };
  }
  if (isConsumerGroupKeyVersion(keyVersion)) return decodeConsumerGroupRecord(keyVersion, reader, value);
  return undefined;
}

function decodeOffsetValue(bytes: Uint8Array): OffsetRecordValue | undefined {
  const reader = new Reader(bytes);
  const version = reader.int16();
  let value: OffsetRecordValue;
  if (version === LEGACY_VALUE_VERSION) {
    value = {
      offset: Number(reader.int64()),
      leaderEpoch: reader.int32(),
      metadata: reader.nullableString() ?? '',
      commitTimestampMs: Number(reader.int64()),
      expireTimestampMs: Number(reader.int64()),
    };
  } else if (version >= 1 && version <= 3) {
    const offset = Number(reader.int64());
    const leaderEpoch = version >= 3 ? reader.int32() : -1;
    const metadata = reader.string();
    const commitTimestampMs = Number(reader.int64());
    const expireTimestampMs = version === 1 ? Number(reader.int64()) : -1;
    value = { offset, leaderEpoch, metadata, commitTimestampMs, expireTimestampMs };
  } else {
    return undefined;
  }
  reader.expectEnd('an offset value');
  return value;
}

function decodeGroupValue(bytes: Uint8Array): GroupRecordValue | undefined {
  const reader = new Reader(bytes);
  const version = reader.int16();
  if (version > GROUP_VALUE_VERSION) return undefined;
  const legacy = version === LEGACY_VALUE_VERSION;
  // Weir's old layout had a nullable protocol type; Kafka's "" means none, as Kafka reads it.
  const protocolType = legacy ? reader.nullableString() : reader.string() || null;
  const generationId = reader.int32();
  const protocolName = reader.nullableString();
  const leaderId = reader.nullableString();
  const stateTimestampMs = legacy || version >= 2 ? Number(reader.int64()) : -1;
  const count = reader.int32();
  const members: GroupMemberRecord[] = [];
  for (let index = 0; index < count; index++) {
    const memberId = reader.string();
    const groupInstanceId = legacy || version >= 3 ? reader.nullableString() : null;
    const clientId = reader.string();
    const clientHost = reader.string();
    const rebalanceTimeoutMs = reader.int32();
    const sessionTimeoutMs = reader.int32();
    members.push({
      memberId,
      groupInstanceId,
      clientId,
      clientHost,
      rebalanceTimeoutMs,
      sessionTimeoutMs,
      // Copies: the values must outlive the segment buffer they were read from.
      subscription: Buffer.from(reader.bytes()),
      assignment: Buffer.from(reader.bytes()),
    });
  }
  reader.expectEnd('a group value');
  return { protocolType, generationId, protocolName, leaderId, stateTimestampMs, members };
}

function copy(writer: Writer): Buffer {
  return Buffer.from(writer.finish());
}
