import {
  batchesToLegacyMessageSet,
  type DeferredBytes,
  isDeferredBytes,
  type LegacyMagic,
} from '@weir/protocol';

/**
 * The records of a Fetch v0–v3 partition in the message format its version carries: magic 0
 * below v2, magic 1 from v2 (docs/kafka-compat.md §6.6). Stored batches still on disk are read
 * first (the zero-copy path is only for RecordBatch v2 readers) and their file released. A stored
 * batch that cannot be converted is a damaged segment or a bug, so it throws: the request fails
 * with UNKNOWN_SERVER_ERROR and its cause is logged.
 */
export async function legacyFetchRecords(
  records: Buffer | DeferredBytes,
  fetchVersion: number,
): Promise<Buffer> {
  const magic: LegacyMagic = fetchVersion < 2 ? 0 : 1;
  const bytes = Buffer.isBuffer(records) ? records : await readAndRelease(records);
  if (bytes.length === 0) return bytes;
  const converted = batchesToLegacyMessageSet(bytes, magic);
  if (!converted.ok)
    throw new Error(`stored batches cannot be converted to magic ${magic}: ${converted.error.message}`);
  return converted.value;
}

async function readAndRelease(records: DeferredBytes): Promise<Buffer> {
  try {
    const bytes = await records.read(0, records.length);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } finally {
    records.release();
  }
}

/**
 * Converts the records of every result in place, in order. If one fails, the files of those not yet
 * converted are released before the error goes on.
 */
export async function convertToLegacyFormat(
  results: { records: Buffer | DeferredBytes }[],
  fetchVersion: number,
): Promise<void> {
  for (let index = 0; index < results.length; index++) {
    const result = results[index]!;
    try {
      result.records = await legacyFetchRecords(result.records, fetchVersion);
    } catch (error) {
      for (const rest of results.slice(index + 1)) if (isDeferredBytes(rest.records)) rest.records.release();
      throw error;
    }
  }
}
