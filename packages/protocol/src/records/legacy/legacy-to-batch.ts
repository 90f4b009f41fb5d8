import { DecodeError, type DecodeResult, tryDecode } from '../../codec/decode-error';
import type { CompressionType } from '../batch-attributes';
import { DEFAULT_MAX_DECOMPRESSED_BYTES } from '../compression/compression-codec';
import { withHeaderChecksum } from '../compression/lz4';
import { decompressBytes } from '../compression/registry';
import { encodeRecordBatch, type RecordInput } from '../record-batch';
import { decodeLegacyMessageSet, type LegacyMessage } from './legacy-message';

/**
 * Produce v0–v2's conversion, as Kafka's LogValidator does it: the messages of a legacy message set
 * (wrappers decompressed, their inner messages in order) become the records of one RecordBatch v2,
 * compressed with the codec the producer used (the last one in the set, Kafka's "source codec").
 * Magic 0 messages have no timestamp and keep -1 (Kafka's NO_TIMESTAMP); magic 1 messages keep
 * theirs, or a LogAppendTime wrapper's. The batch is not idempotent (producer id -1): these
 * formats carry no producer id. Offsets are assigned on append, like any batch's.
 *
 * Fails (the caller answers CORRUPT_MESSAGE) on what {@link decodeLegacyMessageSet} refuses, on an
 * empty set, a wrapper without a value, a compressed message inside a wrapper, an inner message
 * whose magic differs from its wrapper's, and data that does not decompress. Magic 0 LZ4 frames
 * carry the header checksum Kafka 0.8 got wrong (KAFKA-3160), so theirs is recomputed before
 * decompressing, as Kafka ignores it (docs/kafka-compat.md §6.6).
 */
export function legacyMessageSetToBatch(
  messageSet: Uint8Array,
  maxDecompressedBytes = DEFAULT_MAX_DECOMPRESSED_BYTES,
): DecodeResult<Buffer> {
  const outer = decodeLegacyMessageSet(messageSet);
  if (!outer.ok) return outer;
  return tryDecode(() => {
    const records: RecordInput[] = [];
    let compression: CompressionType = 'none';
    for (const message of outer.value) {
      if (message.compression === 'none') {
        records.push(recordOf(message, message.timestampMs));
        continue;
      }
      compression = message.compression;
      for (const inner of innerMessages(message, maxDecompressedBytes)) {
        const timestampMs =
          message.timestampType === 'log-append-time' ? message.timestampMs : inner.timestampMs;
        records.push(recordOf(inner, timestampMs));
      }
    }
    if (records.length === 0) throw new DecodeError('invalid-length', 'the message set holds no messages', 0);
    return encodeRecordBatch({ records, compression });
  });
}

function recordOf(message: LegacyMessage, timestampMs: number): RecordInput {
  return { key: message.key, value: message.value, timestampMs };
}

function innerMessages(wrapper: LegacyMessage, maxDecompressedBytes: number): LegacyMessage[] {
  if (wrapper.value === null)
    throw new DecodeError('invalid-value', 'a compressed message without a value', 0);
  const compressed =
    wrapper.compression === 'lz4' && wrapper.magic === 0
      ? lz4WithStandardChecksum(wrapper.value)
      : wrapper.value;
  const decompressed = decompressBytes(wrapper.compression, compressed, maxDecompressedBytes);
  if (!decompressed.ok) throw decompressed.error;
  const inner = decodeLegacyMessageSet(decompressed.value);
  if (!inner.ok) throw inner.error;
  for (const message of inner.value) {
    if (message.compression !== 'none') {
      throw new DecodeError('invalid-value', 'a compressed message inside a compressed message', 0);
    }
    if (message.magic !== wrapper.magic) {
      throw new DecodeError(
        'invalid-value',
        `an inner message of magic ${message.magic} in a magic ${wrapper.magic} wrapper`,
        0,
      );
    }
  }
  return inner.value;
}

function lz4WithStandardChecksum(frame: Buffer): Buffer {
  try {
    return withHeaderChecksum(frame, 'standard');
  } catch (error) {
    throw new DecodeError('decompression-failed', `lz4: ${(error as Error).message}`, 0);
  }
}
