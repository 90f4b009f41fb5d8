import { DecodeError, type DecodeResult } from '../../codec/decode-error';
import type { CompressionType } from '../batch-attributes';
import { type CompressionCodec, DEFAULT_MAX_DECOMPRESSED_BYTES } from './compression-codec';
import { gzipCodec } from './gzip';
import { lz4Codec } from './lz4';
import { noneCodec } from './none';
import { snappyCodec } from './snappy';
import { zstdCodec } from './zstd';

const CODECS: Readonly<Record<CompressionType, CompressionCodec>> = {
  none: noneCodec,
  gzip: gzipCodec,
  snappy: snappyCodec,
  lz4: lz4Codec,
  zstd: zstdCodec,
};

/** The codec for a compression type. Every type Kafka defines has one. */
export function compressionCodec(type: CompressionType): CompressionCodec {
  return CODECS[type];
}

/** Compresses bytes with a codec, in the framing Kafka clients expect. */
export function compressBytes(type: CompressionType, input: Uint8Array): Buffer {
  return CODECS[type].compress(input);
}

/**
 * Decompresses bytes, turning every failure (corrupt, truncated, oversized) into a
 * `'decompression-failed'` result. `at` is reported as the error's byte offset, for callers that
 * decompress a section of a larger buffer.
 */
export function decompressBytes(
  type: CompressionType,
  input: Uint8Array,
  maxOutputBytes = DEFAULT_MAX_DECOMPRESSED_BYTES,
  at = 0,
): DecodeResult<Buffer> {
  try {
    return { ok: true, value: CODECS[type].decompress(input, maxOutputBytes) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: new DecodeError('decompression-failed', `${type}: ${reason}`, at) };
  }
}
