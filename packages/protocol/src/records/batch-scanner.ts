import { DecodeError, type DecodeResult } from '../codec/decode-error';
import { BATCH_LOG_OVERHEAD_BYTES, BatchLayout, MIN_BATCH_LENGTH_BYTES } from './batch-header';
import { asBuffer } from './buffer-view';

/**
 * Splitting a RECORDS blob (a Produce or Fetch partition's bytes, or a run of a log segment) into
 * its concatenated batches. Only the 12-byte prefix of each batch (base offset and length) is
 * read; headers and CRCs are checked separately (`checkBatch`), records are never touched.
 */

/** One step of {@link iterateBatches}. */
export type BatchScanItem =
  /** A complete batch: `bytes` is a view of exactly that batch. */
  | { kind: 'batch'; position: number; bytes: Buffer }
  /**
   * The input ends inside a batch (or inside its 12-byte prefix). Fetch responses may legally end
   * with one when the broker cut at `max_bytes`; a log segment ends with one after a torn write.
   * Always the last item.
   */
  | { kind: 'partial'; position: number; bytes: Buffer }
  /** The batch length at `position` is impossible, so nothing after it can be found. Always last. */
  | { kind: 'invalid'; position: number; error: DecodeError };

/**
 * Walks the batches of a RECORDS blob in order, yielding views (no copies). Never throws.
 */
export function* iterateBatches(records: Uint8Array): Generator<BatchScanItem, void, undefined> {
  const buffer = asBuffer(records);
  let position = 0;
  while (position < buffer.length) {
    const left = buffer.length - position;
    if (left < BATCH_LOG_OVERHEAD_BYTES) {
      yield { kind: 'partial', position, bytes: buffer.subarray(position) };
      return;
    }
    const batchLength = buffer.readInt32BE(position + BatchLayout.batchLength);
    if (batchLength < MIN_BATCH_LENGTH_BYTES) {
      const error = new DecodeError(
        'invalid-length',
        `batch length ${batchLength} is below the ${MIN_BATCH_LENGTH_BYTES}-byte minimum`,
        position + BatchLayout.batchLength,
      );
      yield { kind: 'invalid', position, error };
      return;
    }
    const sizeBytes = BATCH_LOG_OVERHEAD_BYTES + batchLength;
    if (sizeBytes > left) {
      yield { kind: 'partial', position, bytes: buffer.subarray(position) };
      return;
    }
    yield { kind: 'batch', position, bytes: buffer.subarray(position, position + sizeBytes) };
    position += sizeBytes;
  }
}

/** The complete batches of a RECORDS blob, and the partial batch it ends with, if any. */
export interface SplitBatches {
  /** Views of each complete batch, in order. */
  batches: Buffer[];
  /** A view of the trailing partial batch, or `null` when the blob ends on a batch boundary. */
  partialTail: Buffer | null;
}

/**
 * Splits a RECORDS blob into batch views. A partial trailing batch is reported in `partialTail`,
 * not as an error; an impossible batch length is an `'invalid-length'` error.
 */
export function splitBatches(records: Uint8Array): DecodeResult<SplitBatches> {
  const batches: Buffer[] = [];
  for (const item of iterateBatches(records)) {
    if (item.kind === 'batch') batches.push(item.bytes);
    else if (item.kind === 'partial') return { ok: true, value: { batches, partialTail: item.bytes } };
    else return { ok: false, error: item.error };
  }
  return { ok: true, value: { batches, partialTail: null } };
}
