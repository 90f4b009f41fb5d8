import type { ScannedRecord } from '@weir/protocol';
import type { MessageRow, Payload } from '../api/schemas/messages';
import type { Decoder } from './decoders/decoder';
import type { TopicDecoders } from './schema-store';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The bytes as UTF-8 text, or null when they are not valid UTF-8. A value cut to a size limit may
 * end inside a character, so a cut value is also tried without its last 1 to 3 bytes.
 */
function textOf(bytes: Uint8Array, truncated: boolean): string | null {
  const attempts = truncated ? 4 : 1;
  for (let trim = 0; trim < attempts && trim <= bytes.length; trim++) {
    try {
      return utf8.decode(bytes.subarray(0, bytes.length - trim));
    } catch {
      // Not valid with this ending; try a shorter one if the value was cut.
    }
  }
  return null;
}

/** A key, value or header value for the API: base64, text when valid UTF-8, and the original size. */
export function toPayload(bytes: Uint8Array | null, originalBytes?: number): Payload | null {
  if (bytes === null) return null;
  const sizeBytes = originalBytes !== undefined && originalBytes >= 0 ? originalBytes : bytes.length;
  const truncated = sizeBytes > bytes.length;
  return {
    base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
    text: textOf(bytes, truncated),
    sizeBytes,
    truncated,
  };
}

/**
 * The marker a control record's key encodes: version (int16) then type (int16), 0 ABORT and 1
 * COMMIT. The key is never cut for control records in practice (4 bytes), but a short one reads as
 * UNKNOWN rather than failing the page.
 */
export function controlTypeOf(key: Uint8Array | null): MessageRow['controlType'] & string {
  if (key === null || key.length < 4) return 'UNKNOWN';
  const type = new DataView(key.buffer, key.byteOffset, key.byteLength).getInt16(2);
  return type === 0 ? 'ABORT' : type === 1 ? 'COMMIT' : 'UNKNOWN';
}

/**
 * A payload with its schema decoding. A value cut to maxValueBytes cannot be decoded (the schema
 * needs every byte), which the row says rather than showing a misleading error.
 */
function withDecoded(
  payload: Payload | null,
  bytes: Uint8Array | null,
  decoder: Decoder | undefined,
): Payload | null {
  if (payload === null || bytes === null || decoder === undefined) return payload;
  if (payload.truncated) {
    return {
      ...payload,
      decoded: { error: `cut to ${bytes.length} of ${payload.sizeBytes} bytes: not decoded` },
    };
  }
  return { ...payload, decoded: decoder.decode(bytes) as Payload['decoded'] };
}

/** Rows for a page: plain, or with `key.decoded` / `value.decoded` from the topic's schemas. */
export function rowMapper(decoders?: TopicDecoders): (record: ScannedRecord) => MessageRow {
  if (decoders === undefined) return toMessageRow;
  return (record) => {
    const row = toMessageRow(record);
    if (record.control) return row;
    return {
      ...row,
      key: withDecoded(row.key, record.key, decoders.key),
      value: withDecoded(row.value, record.value, decoders.value),
    };
  };
}

export function toMessageRow(record: ScannedRecord): MessageRow {
  return {
    partition: record.partition,
    offset: record.offset.toString(),
    timestampMs: Number(record.timestampMs),
    timestampType: record.logAppendTime ? 'log-append-time' : 'create-time',
    key: toPayload(record.key, record.keyBytes),
    value: toPayload(record.value, record.valueBytes),
    // Header values carry no original size on the wire; a cut one is the size limit long.
    headers: record.headers.map((header) => ({ key: header.key, value: toPayload(header.value) })),
    transactional: record.transactional,
    control: record.control,
    controlType: record.control ? controlTypeOf(record.key) : null,
    producerId: record.producerId.toString(),
    producerEpoch: record.producerEpoch,
    transaction: record.transaction,
    compression: record.compression,
  };
}
