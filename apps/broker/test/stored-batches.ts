import { batchCompression, decodeRecordBatch, Fetch, iterateBatches, readBatchHeader } from '@weir/protocol';
import type { RawClient } from './raw-client';
import { fetchBody } from './raw-socket';

/**
 * What the broker stored, read back with Fetch v11 (RecordBatch v2, no conversion): the judge of
 * the legacy-format tests, whose clients read through the conversions.
 */

async function storedBatches(raw: RawClient, topic: string, partition: number): Promise<Buffer[]> {
  const response = await raw.request(Fetch, 11, fetchBody(topic, partition, 0n));
  const answer = response.responses[0]!.partitions[0]!;
  if (answer.errorCode !== 0)
    throw new Error(`Fetch v11 of ${topic}-${partition}: error ${answer.errorCode}`);
  const batches: Buffer[] = [];
  for (const item of iterateBatches(answer.records ?? Buffer.alloc(0))) {
    if (item.kind === 'batch') batches.push(item.bytes);
  }
  return batches;
}

/** The codec of every batch stored in `partition` of `topic`, in log order. */
export async function storedCodecs(raw: RawClient, topic: string, partition: number): Promise<string[]> {
  return (await storedBatches(raw, topic, partition)).map((batch) => {
    const header = readBatchHeader(batch);
    if (!header.ok) throw header.error;
    return batchCompression(header.value.attributes) ?? 'unknown';
  });
}

/** One record as the broker stores it, read back with Fetch v11 (RecordBatch v2, no conversion). */
export interface StoredRecord {
  offset: number;
  key: string | null;
  value: string | null;
  timestampMs: number;
}

/** Every record stored in `partition` of `topic` from offset 0, read with one Fetch v11. */
export async function storedRecords(
  raw: RawClient,
  topic: string,
  partition: number,
): Promise<StoredRecord[]> {
  const records: StoredRecord[] = [];
  for (const bytes of await storedBatches(raw, topic, partition)) {
    const batch = decodeRecordBatch(bytes);
    if (!batch.ok) throw batch.error;
    for (const record of batch.value.records) {
      records.push({
        offset: Number(record.offset),
        key: record.key?.toString() ?? null,
        value: record.value?.toString() ?? null,
        timestampMs: record.timestampMs,
      });
    }
  }
  return records;
}
