import { ErrorCode } from '../errors/error-codes';
import { WeirError } from '../errors/weir-error';
import { batchTimestampType, isControlBatch } from '../records/batch-attributes';
import { batchLastOffset, readBatchHeader } from '../records/batch-header';
import { splitBatches } from '../records/batch-scanner';
import { decodeRecordBatch } from '../records/record-batch';
import type { ConsumerRecord } from './message';

/** What one partition's fetched bytes held. */
export interface FetchedRecords {
  /** Records at or after the fetch offset, in offset order. */
  readonly records: ConsumerRecord[];
  /** Where the next fetch starts: after the last complete batch (or the fetch offset if none). */
  readonly nextOffset: bigint;
  /** Set when a batch could not be read; `records` and `nextOffset` stop before it. */
  readonly error: WeirError | undefined;
}

/**
 * Decodes the RECORDS of one fetched partition (checking CRCs and decompressing). The broker
 * returns whole stored batches, so the first may start before `fetchOffset`: records below it
 * are dropped. The answer may end in a partial batch when the broker cut at a size limit; it is
 * ignored and fetched whole next time. Control batches (transaction markers) are skipped but move
 * the position past them.
 */
export function decodeFetchedRecords(
  topic: string,
  partition: number,
  fetchOffset: bigint,
  bytes: Buffer | null,
): FetchedRecords {
  const records: ConsumerRecord[] = [];
  let nextOffset = fetchOffset;
  const name = `${topic}-${partition}`;
  const corrupt = (reason: string) =>
    new WeirError(ErrorCode.CORRUPT_MESSAGE, { detail: `${name} at offset ${nextOffset}: ${reason}` });
  if (bytes === null || bytes.length === 0) return { records, nextOffset, error: undefined };
  const split = splitBatches(bytes);
  if (!split.ok) return { records, nextOffset, error: corrupt(split.error.message) };
  for (const batchBytes of split.value.batches) {
    const header = readBatchHeader(batchBytes);
    if (!header.ok) return { records, nextOffset, error: corrupt(header.error.message) };
    const lastOffset = batchLastOffset(header.value);
    // Wholly below the position: skip it without decoding its records.
    if (lastOffset < nextOffset) continue;
    if (!isControlBatch(header.value.attributes)) {
      const decoded = decodeRecordBatch(batchBytes);
      if (!decoded.ok) return { records, nextOffset, error: corrupt(decoded.error.message) };
      const timestampType = batchTimestampType(decoded.value.attributes);
      for (const record of decoded.value.records) {
        if (record.offset < nextOffset) continue;
        records.push({
          topic,
          partition,
          offset: record.offset,
          key: record.key,
          value: record.value,
          headers: record.headers,
          timestampMs: record.timestampMs,
          timestampType,
        });
      }
    }
    nextOffset = lastOffset + 1n;
  }
  if (split.value.batches.length === 0 && split.value.partialTail !== null) {
    // Brokers send at least one whole batch whatever the limits (KIP-74); one that does not would
    // leave this partition stuck, so say so rather than fetch the same bytes forever.
    const error = new WeirError(ErrorCode.RECORD_LIST_TOO_LARGE, {
      detail: `${name} at offset ${nextOffset}: the broker sent only part of a batch of unknown size; raise partitionMaxBytes and maxBytes.`,
    });
    return { records, nextOffset, error };
  }
  return { records, nextOffset, error: undefined };
}
