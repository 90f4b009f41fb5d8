import { DecodeError, type DecodeResult, tryDecode } from '../../codec/decode-error';
import {
  batchCompression,
  batchTimestampType,
  type CompressionType,
  isControlBatch,
} from '../batch-attributes';
import { readBatchHeaderOrThrow } from '../batch-header';
import { iterateBatches } from '../batch-scanner';
import { withHeaderChecksum } from '../compression/lz4';
import { compressBytes } from '../compression/registry';
import { type DecodedRecord, decodeRecordBatch } from '../record-batch';
import { encodeLegacyMessageSet, type LegacyMagic, type LegacyMessageInput } from './legacy-message';

/**
 * Fetch v0–v3's conversion, as Kafka's down-conversion does it: each stored RecordBatch v2 becomes
 * messages of the format the fetch version can carry (magic 0 below Fetch v2, magic 1 from v2).
 * Control batches (transaction markers) are left out, since these formats cannot hold them; record
 * headers are dropped for the same reason. A compressed batch becomes one compressed wrapper
 * message with the same codec, its inner offsets relative in magic 1 (KIP-31) and absolute in magic
 * 0, and the wrapper at the last record's offset, so a consumer sees every record at its stored
 * offset. Magic 0 LZ4 frames get the header checksum magic 0 readers expect (KAFKA-3160's). zstd,
 * which these formats do not define, is sent uncompressed.
 * A partial batch at the end (a fetch cut at its size limit) is left out.
 *
 * The bytes are the broker's own stored batches, already checked on append, so CRCs are not checked
 * again; a batch that cannot be decoded fails the conversion (a bug or a damaged segment).
 */
export function batchesToLegacyMessageSet(records: Uint8Array, magic: LegacyMagic): DecodeResult<Buffer> {
  return tryDecode(() => {
    const messages: LegacyMessageInput[] = [];
    for (const item of iterateBatches(records)) {
      if (item.kind === 'invalid') throw item.error;
      if (item.kind === 'partial') break;
      const header = readBatchHeaderOrThrow(item.bytes, 0);
      if (isControlBatch(header.attributes) || header.recordCount === 0) continue;
      const decoded = decodeRecordBatch(item.bytes, { verifyCrc: false });
      if (!decoded.ok) throw decoded.error;
      const batchRecords = decoded.value.records;
      if (batchRecords.length === 0) continue;
      const timestampType = batchTimestampType(header.attributes);
      const compression = wrapperCompression(batchCompression(header.attributes));
      const plain = batchRecords.map((record) => plainMessage(record, magic, timestampType));
      if (compression === 'none') {
        messages.push(...plain);
        continue;
      }
      const firstOffset = batchRecords[0]!.offset;
      const inner =
        magic === 1
          ? batchRecords.map((record, index) => ({ ...plain[index]!, offset: record.offset - firstOffset }))
          : plain;
      messages.push({
        offset: batchRecords[batchRecords.length - 1]!.offset,
        magic,
        compression,
        timestampType,
        timestampMs: header.maxTimestampMs,
        key: null,
        value: compressedInner(compression, magic, encodeLegacyMessageSet(inner)),
      });
    }
    return encodeLegacyMessageSet(messages);
  });
}

function plainMessage(
  record: DecodedRecord,
  magic: LegacyMagic,
  timestampType: LegacyMessageInput['timestampType'],
): LegacyMessageInput {
  return {
    offset: record.offset,
    magic,
    timestampType,
    timestampMs: record.timestampMs,
    key: record.key,
    value: record.value,
  };
}

function wrapperCompression(stored: CompressionType | undefined): CompressionType {
  if (stored === undefined) throw new DecodeError('invalid-value', 'a stored batch with an unknown codec', 0);
  return stored === 'zstd' ? 'none' : stored;
}

function compressedInner(compression: CompressionType, magic: LegacyMagic, messageSet: Buffer): Buffer {
  const compressed = compressBytes(compression, messageSet);
  return compression === 'lz4' && magic === 0 ? withHeaderChecksum(compressed, 'kafka-0.8') : compressed;
}
