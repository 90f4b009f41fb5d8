import { ErrorCode, legacyMagicOf, legacyMessageSetToBatch } from '@weir/protocol';
import type { ItemResult } from '../../errors/item-result';

/**
 * The records of a Produce v0–v2 partition as the log stores them: a legacy message set (magic 0
 * or 1) becomes one RecordBatch v2 (docs/kafka-compat.md §6.6). Anything else (null, a v2 batch)
 * is passed on unchanged for the log's own checks to answer. A message set that cannot be
 * converted is CORRUPT_MESSAGE, naming what is wrong with it.
 */
export function legacyProduceRecords(records: Buffer | null): ItemResult<Buffer | null> {
  if (records === null || legacyMagicOf(records) === undefined) return { ok: true, value: records };
  const converted = legacyMessageSetToBatch(records);
  if (converted.ok) return { ok: true, value: converted.value };
  return {
    ok: false,
    errorCode: ErrorCode.CORRUPT_MESSAGE,
    errorMessage: `the message set cannot be converted to a record batch: ${converted.error.message}`,
  };
}
