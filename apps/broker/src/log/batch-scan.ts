import {
  BATCH_HEADER_BYTES,
  BATCH_LOG_OVERHEAD_BYTES,
  type RecordBatchHeader,
  readBatchHeader,
  verifyBatchCrc,
} from '@weir/protocol';
import type { StorageFile } from './storage';

/** One batch found by a scan: where it is in the file and its decoded header. */
export interface ScannedBatch {
  positionBytes: number;
  sizeBytes: number;
  header: RecordBatchHeader;
  baseOffset: number;
  lastOffset: number;
  /** The whole batch, present only when the scan was asked for bodies. A view: copy to keep it. */
  body: Buffer | undefined;
}

/** Why a scan stopped before the end of the file. */
export type ScanStop =
  | { kind: 'end' }
  /** The file ends inside a batch: a torn write. */
  | { kind: 'torn'; positionBytes: number; reason: string }
  /** A complete batch failed its checks (bad header or CRC). */
  | { kind: 'corrupt'; positionBytes: number; reason: string };

export interface ScanOptions {
  /** Read each batch whole and pass it to the visitor. */
  withBody: boolean;
  /** Check each batch's CRC-32C (implies reading bodies). */
  verifyCrc: boolean;
  /** Bytes read per disk call; batches larger than this are read on their own. */
  chunkBytes?: number;
}

const DEFAULT_CHUNK_BYTES = 1024 * 1024;

/**
 * Walks the batches of a segment file from `fromPositionBytes` to `endPositionBytes`, reading in
 * bounded chunks (never the whole segment), and calls `visit` for each complete, valid batch. The
 * visitor returns false to stop early. The scan reports how it ended so recovery can truncate a
 * torn or corrupt tail.
 */
export async function scanBatches(
  file: StorageFile,
  fromPositionBytes: number,
  endPositionBytes: number,
  options: ScanOptions,
  visit: (batch: ScannedBatch) => boolean | undefined,
): Promise<ScanStop> {
  const needBody = options.withBody || options.verifyCrc;
  const chunkBytes = Math.max(options.chunkBytes ?? DEFAULT_CHUNK_BYTES, BATCH_HEADER_BYTES);
  let chunk: Buffer = Buffer.alloc(0);
  let scratch: Buffer | undefined;
  let chunkStart = fromPositionBytes;
  let position = fromPositionBytes;

  // Makes sure bytes [position, position + byteCount) are in `chunk`; false at end of file.
  const ensure = async (byteCount: number): Promise<boolean> => {
    const available = chunkStart + chunk.length - position;
    if (position >= chunkStart && available >= byteCount) return true;
    const wanted = Math.min(Math.max(byteCount, chunkBytes), endPositionBytes - position);
    if (wanted < byteCount) return false;
    // One chunk buffer serves the whole scan (the visitor gets views and copies what it keeps);
    // only a batch larger than a chunk gets a buffer of its own.
    let buffer: Buffer;
    if (wanted <= chunkBytes) {
      scratch ??= Buffer.allocUnsafe(chunkBytes);
      buffer = scratch.subarray(0, wanted);
    } else {
      buffer = Buffer.allocUnsafe(wanted);
    }
    const bytesRead = await readFully(file, buffer, position);
    chunk = buffer.subarray(0, bytesRead);
    chunkStart = position;
    return bytesRead >= byteCount;
  };

  while (position < endPositionBytes) {
    if (!(await ensure(BATCH_HEADER_BYTES))) {
      return { kind: 'torn', positionBytes: position, reason: 'file ends inside a batch header' };
    }
    const headerResult = readBatchHeader(chunk, position - chunkStart);
    if (!headerResult.ok) {
      return { kind: 'corrupt', positionBytes: position, reason: headerResult.error.message };
    }
    const header = headerResult.value;
    const sizeBytes = BATCH_LOG_OVERHEAD_BYTES + header.batchLength;
    if (position + sizeBytes > endPositionBytes) {
      return {
        kind: 'torn',
        positionBytes: position,
        reason: `batch of ${sizeBytes} bytes runs past the end`,
      };
    }
    let body: Buffer | undefined;
    if (needBody) {
      if (!(await ensure(sizeBytes))) {
        return { kind: 'torn', positionBytes: position, reason: 'file ends inside a batch' };
      }
      body = chunk.subarray(position - chunkStart, position - chunkStart + sizeBytes);
      if (options.verifyCrc) {
        const crc = verifyBatchCrc(body);
        if (!crc.ok) return { kind: 'corrupt', positionBytes: position, reason: crc.error.message };
      }
    }
    const baseOffset = Number(header.baseOffset);
    const scanned: ScannedBatch = {
      positionBytes: position,
      sizeBytes,
      header,
      baseOffset,
      lastOffset: baseOffset + header.lastOffsetDelta,
      body,
    };
    position += sizeBytes;
    if (visit(scanned) === false) break;
  }
  return { kind: 'end' };
}

/** Reads until `target` is full or the file ends; returns the bytes read. */
export async function readFully(file: StorageFile, target: Buffer, positionBytes: number): Promise<number> {
  let total = 0;
  while (total < target.length) {
    const bytesRead = await file.read(target, total, target.length - total, positionBytes + total);
    if (bytesRead === 0) break;
    total += bytesRead;
  }
  return total;
}
