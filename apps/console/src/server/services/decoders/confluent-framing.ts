/*
 * Confluent's wire format (Schema Registry "wire format"): byte 0 is the magic byte 0, bytes 1-4
 * the schema id (big-endian int32), then the serialized data. Protobuf adds, before the data, the
 * path of message indexes naming the message type within the .proto file: a zig-zag varint count
 * followed by that many zig-zag varints; the common path [0] (the first message) is written as
 * the single count 0.
 */

export interface ConfluentFrame {
  readonly schemaId: number;
  /** Protobuf only: the message-index path. */
  readonly messageIndexes: readonly number[];
  readonly body: Uint8Array;
}

const HEADER_BYTES = 5;

/** Reads one zig-zag varint (at most 32 bits) at `position`; undefined when the bytes end first. */
function readZigZag(bytes: Uint8Array, position: number): { value: number; next: number } | undefined {
  let raw = 0;
  for (let shift = 0, at = position; shift < 35 && at < bytes.length; shift += 7, at++) {
    const byte = bytes[at]!;
    raw += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) {
      const value = raw % 2 === 0 ? raw / 2 : -(raw + 1) / 2;
      return { value, next: at + 1 };
    }
  }
  return undefined;
}

/** Splits a framed record, or says why it is not one. */
export function readConfluentFrame(bytes: Uint8Array, protobuf: boolean): ConfluentFrame | { error: string } {
  if (bytes.length < HEADER_BYTES) {
    return { error: `${bytes.length} bytes are too few for the Confluent wire format (5-byte header)` };
  }
  if (bytes[0] !== 0) return { error: `magic byte is ${bytes[0]}, not 0: not the Confluent wire format` };
  const schemaId = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(1);
  if (!protobuf) return { schemaId, messageIndexes: [], body: bytes.subarray(HEADER_BYTES) };
  const count = readZigZag(bytes, HEADER_BYTES);
  if (count === undefined || count.value < 0 || count.value > 100) {
    return { error: 'the message-index list after the schema id is cut or malformed' };
  }
  if (count.value === 0) return { schemaId, messageIndexes: [0], body: bytes.subarray(count.next) };
  const messageIndexes: number[] = [];
  let position = count.next;
  for (let index = 0; index < count.value; index++) {
    const item = readZigZag(bytes, position);
    if (item === undefined || item.value < 0) {
      return { error: 'the message-index list after the schema id is cut or malformed' };
    }
    messageIndexes.push(item.value);
    position = item.next;
  }
  return { schemaId, messageIndexes, body: bytes.subarray(position) };
}

function zigZag(value: number): number[] {
  let raw = value >= 0 ? value * 2 : -value * 2 - 1;
  const out: number[] = [];
  while (raw >= 0x80) {
    out.push((raw % 0x80) | 0x80);
    raw = Math.floor(raw / 0x80);
  }
  out.push(raw);
  return out;
}

/** Frames a body in the wire format (what Confluent's serializers write), for producers and tests. */
export function writeConfluentFrame(
  schemaId: number,
  body: Uint8Array,
  messageIndexes?: readonly number[],
): Uint8Array {
  const header = new Uint8Array(HEADER_BYTES);
  new DataView(header.buffer).setInt32(1, schemaId);
  let indexes: number[] = [];
  if (messageIndexes !== undefined) {
    indexes =
      messageIndexes.length === 1 && messageIndexes[0] === 0
        ? [0]
        : [...zigZag(messageIndexes.length), ...messageIndexes.flatMap(zigZag)];
  }
  return Buffer.concat([header, Uint8Array.from(indexes), body]);
}
