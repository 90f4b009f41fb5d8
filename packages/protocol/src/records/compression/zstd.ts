import { createRequire } from 'node:module';
import { Compressor } from 'zstd-napi';
import { type CompressionCodec, checkOutputSize } from './compression-codec';

/**
 * Zstandard (id 4), standard zstd frames at the default level 3, as the Java client and librdkafka
 * use by default.
 *
 * Decoding drives the native streaming decoder directly instead of zstd-napi's `decompress`:
 * that helper allocates whatever content size a frame header announces (a 20-byte lie can ask for
 * gigabytes) and returns partial output without an error when a frame is cut short. The loop below
 * caps the output and requires every frame to end.
 */

// The low-level binding is a CommonJS module whose exports Node's ESM loader cannot see by name.
const binding: typeof import('zstd-napi/binding') = createRequire(import.meta.url)('zstd-napi/binding');

const MIN_OUTPUT_CHUNK_BYTES = 64 * 1024;

let compressor: Compressor | undefined;
let decompressionContext: InstanceType<typeof binding.DCtx> | undefined;

function compress(input: Uint8Array): Buffer {
  compressor ??= new Compressor();
  return compressor.compress(input);
}

function decompress(input: Uint8Array, maxOutputBytes: number): Buffer {
  if (input.length === 0) throw new Error('empty zstd input');
  decompressionContext ??= new binding.DCtx();
  const context = decompressionContext;
  // A previous call may have stopped mid-frame on bad input; start clean.
  context.reset(binding.ResetDirective.sessionOnly);
  const announced = binding.getFrameContentSize(input);
  if (announced !== null) checkOutputSize(announced, maxOutputBytes);
  const chunks: Buffer[] = [];
  let totalBytes = 0;
  let remaining = input;
  let frameOpen = false;
  let chunkBytes = Math.min(
    maxOutputBytes + 1,
    Math.max(MIN_OUTPUT_CHUNK_BYTES, announced ?? input.length * 4),
  );
  while (remaining.length > 0 || frameOpen) {
    const chunk = Buffer.allocUnsafe(Math.max(1, chunkBytes));
    const [hint, produced, consumed] = context.decompressStream(chunk, remaining);
    if (consumed === 0 && produced === 0 && remaining.length > 0) throw new Error('zstd made no progress');
    remaining = remaining.subarray(consumed);
    if (produced > 0) {
      totalBytes += produced;
      checkOutputSize(totalBytes, maxOutputBytes);
      chunks.push(chunk.subarray(0, produced));
    }
    // A zero hint means the current frame is complete; anything else means it needs more input or
    // more output room.
    frameOpen = hint !== 0;
    if (frameOpen && consumed === 0 && produced < chunk.length && remaining.length === 0) {
      throw new Error('zstd frame is truncated');
    }
    chunkBytes = Math.min(maxOutputBytes - totalBytes + 1, Math.max(MIN_OUTPUT_CHUNK_BYTES, chunkBytes * 2));
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, totalBytes);
}

export const zstdCodec: CompressionCodec = { type: 'zstd', compress, decompress };
