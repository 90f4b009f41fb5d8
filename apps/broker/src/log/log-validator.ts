import {
  BATCH_LOG_OVERHEAD_BYTES,
  batchCompression,
  checkBatch,
  ErrorCode,
  isControlBatch,
  isTransactionalBatch,
  type RecordBatchHeader,
  WeirError,
} from '@weir/protocol';

/** Who is appending: producers may not write control batches; coordinators write only those. */
export type AppendOrigin = 'client' | 'coordinator' | 'replication';

/**
 * Checks one incoming batch before it is stored, without decoding or decompressing its records
 * (docs/kafka-compat.md §6.3): a whole v2 batch of exactly the bytes received, a matching CRC-32C, a known
 * codec, a record count that agrees with the last offset delta, no control bit from a client, a
 * producer id on transactional batches, and a size within max.message.bytes. A failure is a
 * {@link WeirError} with the Kafka code the produce response carries.
 */
export function validateBatch(
  batch: Buffer,
  origin: AppendOrigin,
  maxMessageBytes: number,
): RecordBatchHeader {
  if (batch.length > maxMessageBytes) {
    throw new WeirError(ErrorCode.MESSAGE_TOO_LARGE, {
      detail: `batch of ${batch.length} bytes exceeds max.message.bytes ${maxMessageBytes}`,
    });
  }
  const checked = checkBatch(batch);
  if (!checked.ok) {
    throw new WeirError(ErrorCode.CORRUPT_MESSAGE, { detail: checked.error.message });
  }
  const header = checked.value;
  if (BATCH_LOG_OVERHEAD_BYTES + header.batchLength !== batch.length) {
    throw new WeirError(ErrorCode.CORRUPT_MESSAGE, {
      detail: `batch length ${header.batchLength} + 12 does not match the ${batch.length} bytes received`,
    });
  }
  if (batchCompression(header.attributes) === undefined) {
    throw new WeirError(ErrorCode.CORRUPT_MESSAGE, {
      detail: `unknown compression codec in attributes ${header.attributes}`,
    });
  }
  if (origin === 'client') {
    if (isControlBatch(header.attributes)) {
      throw new WeirError(ErrorCode.INVALID_RECORD, { detail: 'clients may not send control batches' });
    }
    if (header.recordCount === 0 || header.lastOffsetDelta !== header.recordCount - 1) {
      throw new WeirError(ErrorCode.CORRUPT_MESSAGE, {
        detail: `last offset delta ${header.lastOffsetDelta} does not match record count ${header.recordCount}`,
      });
    }
  }
  if (isTransactionalBatch(header.attributes) && header.producerId < 0n) {
    throw new WeirError(ErrorCode.INVALID_RECORD, { detail: 'a transactional batch needs a producer id' });
  }
  if (header.lastOffsetDelta < 0) {
    throw new WeirError(ErrorCode.CORRUPT_MESSAGE, {
      detail: `negative last offset delta ${header.lastOffsetDelta}`,
    });
  }
  return header;
}
