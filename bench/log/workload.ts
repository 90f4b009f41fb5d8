import { encodeRecordBatch } from '@weir/protocol';
import { makeRecords } from '../codec/workload';
import { KIB } from './units';

export const RECORD_BYTES = KIB;
export const BATCH_PAYLOAD_BYTES = 16 * KIB;

/**
 * A producer batch of 1 KiB records filling about 16 KiB, uncompressed, as a client would send it.
 * The records come from the codec benchmark so both benchmarks store the same kind of bytes.
 */
export function encodeBenchBatch(): Buffer {
  return encodeRecordBatch({ records: makeRecords(RECORD_BYTES, BATCH_PAYLOAD_BYTES) });
}

/**
 * One private copy of `batch` per concurrent appender. The log rewrites a batch's base offset in
 * place just before it writes the group, so two queued appends sharing one buffer would both be
 * written with the later offset; an appender reuses its own copy only after its append resolved.
 */
export function batchCopies(batch: Buffer, count: number): Buffer[] {
  return Array.from({ length: count }, () => Buffer.from(batch));
}

/** The "one small append" each of many partitions gets: a single 100-byte record. */
export function encodeSmallBatch(): Buffer {
  return encodeRecordBatch({ records: makeRecords(100, 100) });
}
