import { Reader, Writer } from '@weir/protocol';

/**
 * The records of `__consumer_offsets`: Weir's own versioned binary layout (Kafka's split of one
 * key per offset and one per group is the model; the bytes are not Kafka's). Big-endian, with
 * Kafka's primitive encodings: strings are int16 length + UTF-8 (-1 = null), bytes are int32
 * length + data.
 *
 * Key — an int16 key type first, so a reader knows what follows:
 *   type 1, committed offset:  string group, string topic, int32 partition
 *   type 2, group metadata:    string group
 *
 * Value — null is a tombstone (the offset, or the whole group, was deleted); otherwise an int16
 * value version first:
 *   offset v0: int64 offset, int32 leader epoch (-1 unknown), nullable string metadata,
 *              int64 commit timestamp ms, int64 expire timestamp ms (-1: retention rules apply)
 *   group v0:  nullable string protocol type, int32 generation, nullable string protocol,
 *              nullable string leader, int64 state timestamp ms, int32 member count, then per
 *              member: string member id, nullable string group instance id, string client id,
 *              string client host, int32 rebalance timeout ms, int32 session timeout ms,
 *              bytes subscription (its metadata for the chosen protocol), bytes assignment
 *
 * A later record for the same key replaces an earlier one, which is what compaction will rely on.
 * Keys of an unknown type and values of an unknown version decode to undefined and are skipped
 * when loading (a newer broker wrote them), instead of failing the whole load.
 */

const OFFSET_KEY_TYPE = 1;
const GROUP_KEY_TYPE = 2;
const OFFSET_VALUE_VERSION = 0;
const GROUP_VALUE_VERSION = 0;

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
  | { kind: 'group'; groupId: string; value: GroupRecordValue | null };

export function encodeCoordinatorRecord(record: CoordinatorRecord): { key: Buffer; value: Buffer | null } {
  const key = new Writer(64);
  if (record.kind === 'offset') {
    key.int16(OFFSET_KEY_TYPE).string(record.groupId).string(record.topic).int32(record.partition);
    return { key: copy(key), value: record.value === null ? null : encodeOffsetValue(record.value) };
  }
  key.int16(GROUP_KEY_TYPE).string(record.groupId);
  return { key: copy(key), value: record.value === null ? null : encodeGroupValue(record.value) };
}

function encodeOffsetValue(value: OffsetRecordValue): Buffer {
  const writer = new Writer(64);
  writer
    .int16(OFFSET_VALUE_VERSION)
    .int64(BigInt(value.offset))
    .int32(value.leaderEpoch)
    .nullableString(value.metadata)
    .int64(BigInt(value.commitTimestampMs))
    .int64(BigInt(value.expireTimestampMs));
  return copy(writer);
}

function encodeGroupValue(value: GroupRecordValue): Buffer {
  const writer = new Writer(256);
  writer
    .int16(GROUP_VALUE_VERSION)
    .nullableString(value.protocolType)
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
 * Decodes one record. Returns undefined for a key type or value version this broker does not
 * know; throws a DecodeError for bytes that do not match their declared layout.
 */
export function decodeCoordinatorRecord(
  key: Uint8Array,
  value: Uint8Array | null,
): CoordinatorRecord | undefined {
  const reader = new Reader(key);
  const keyType = reader.int16();
  if (keyType === OFFSET_KEY_TYPE) {
    const groupId = reader.string();
    const topic = reader.string();
    const partition = reader.int32();
    reader.expectEnd('an offset key');
    if (value === null) return { kind: 'offset', groupId, topic, partition, value: null };
    const decoded = decodeOffsetValue(value);
    return decoded && { kind: 'offset', groupId, topic, partition, value: decoded };
  }
  if (keyType === GROUP_KEY_TYPE) {
    const groupId = reader.string();
    reader.expectEnd('a group key');
    if (value === null) return { kind: 'group', groupId, value: null };
    const decoded = decodeGroupValue(value);
    return decoded && { kind: 'group', groupId, value: decoded };
  }
  return undefined;
}

function decodeOffsetValue(bytes: Uint8Array): OffsetRecordValue | undefined {
  const reader = new Reader(bytes);
  if (reader.int16() !== OFFSET_VALUE_VERSION) return undefined;
  const value = {
    offset: Number(reader.int64()),
    leaderEpoch: reader.int32(),
    metadata: reader.nullableString(),
    commitTimestampMs: Number(reader.int64()),
    expireTimestampMs: Number(reader.int64()),
  };
  reader.expectEnd('an offset value');
  return value;
}

function decodeGroupValue(bytes: Uint8Array): GroupRecordValue | undefined {
  const reader = new Reader(bytes);
  if (reader.int16() !== GROUP_VALUE_VERSION) return undefined;
  const protocolType = reader.nullableString();
  const generationId = reader.int32();
  const protocolName = reader.nullableString();
  const leaderId = reader.nullableString();
  const stateTimestampMs = Number(reader.int64());
  const count = reader.int32();
  const members: GroupMemberRecord[] = [];
  for (let index = 0; index < count; index++) {
    members.push({
      memberId: reader.string(),
      groupInstanceId: reader.nullableString(),
      clientId: reader.string(),
      clientHost: reader.string(),
      rebalanceTimeoutMs: reader.int32(),
      sessionTimeoutMs: reader.int32(),
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
