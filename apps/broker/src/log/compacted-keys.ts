import {
  decodeRecordBatch,
  ErrorCode,
  isControlBatch,
  type RecordBatchHeader,
  WeirError,
} from '@weir/protocol';

/**
 * Refuses a batch with a record that has no key on a compacted topic, as Kafka's LogValidator does:
 * the cleaner keeps the latest record per key, so a keyless record could never be kept and would be
 * lost at the first clean. The records must be read for this (decompressing them), which is why
 * only producers' batches to compacted topics pay for it.
 */
export function checkCompactedKeys(
  batch: Buffer,
  header: RecordBatchHeader,
  topic: string,
  partition: number,
): void {
  if (isControlBatch(header.attributes)) return;
  const decoded = decodeRecordBatch(batch, { verifyCrc: false });
  if (!decoded.ok) throw new WeirError(ErrorCode.CORRUPT_MESSAGE, { detail: decoded.error.message });
  if (decoded.value.records.some((record) => record.key === null)) {
    throw new WeirError(ErrorCode.INVALID_RECORD, {
      detail: `Compacted topic cannot accept message without key in topic partition ${topic}-${partition}.`,
    });
  }
}
