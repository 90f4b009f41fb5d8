import { ErrorCode } from '../errors/error-codes';
import { WeirError } from '../errors/weir-error';
import type { RecordHeaderInput } from '../records/record';
import { type ProducerMessage, toBuffer } from './message';
import { estimateRecordBytes, type PendingRecord, type SendTracker } from './producer-batch';

/** Header lists of records without headers share this one (it is never written to). */
const NO_HEADERS: readonly RecordHeaderInput[] = Object.freeze([]);

/**
 * Checks and converts every message of one `send` before any is queued, so a bad one fails the
 * whole send. A message larger than the whole buffer (`capacityBytes`) could never be queued, so it
 * fails here too instead of waiting forever.
 */
export function pendingRecords(
  messages: readonly ProducerMessage[],
  tracker: SendTracker,
  capacityBytes: number,
): PendingRecord[] {
  const nowMs = Date.now();
  const records: PendingRecord[] = new Array(messages.length);
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    const key = toBuffer(message.key);
    const value = toBuffer(message.value);
    const given = message.headers;
    const headers =
      given === undefined || given.length === 0
        ? NO_HEADERS
        : given.map((header) => ({ key: header.key, value: toBuffer(header.value) }));
    const partition = message.partition;
    if (partition !== undefined && (!Number.isInteger(partition) || partition < 0)) {
      throw new RangeError(`message ${index}: partition must be a non-negative integer, got ${partition}`);
    }
    const timestampMs = message.timestampMs ?? nowMs;
    if (!Number.isSafeInteger(timestampMs)) {
      throw new RangeError(`message ${index}: timestampMs must be an integer, got ${timestampMs}`);
    }
    const sizeBytes = estimateRecordBytes(key, value, headers);
    if (sizeBytes > capacityBytes) {
      throw new WeirError(ErrorCode.MESSAGE_TOO_LARGE, {
        detail: `message ${index} takes about ${sizeBytes} bytes, more than bufferBytes (${capacityBytes}).`,
      });
    }
    records[index] = { key, value, headers, partition, timestampMs, sizeBytes, tracker, index };
  }
  return records;
}
