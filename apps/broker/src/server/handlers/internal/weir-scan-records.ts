import {
  compressionTypeId,
  ErrorCode,
  SCAN_TRANSACTION_STATUS,
  WeirError,
  WeirScanRecords,
} from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirScanRecords;

/**
 * WeirScanRecords v0–2: one bounded step of a record scan. Offsets cross the service boundary as
 * numbers (the log's offsets are safe integers); bad bounds and unknown topics or partitions are
 * top-level errors, a partition whose log fails carries its code on its progress row. Needs READ
 * on the topic. v2 adds the isolation level (0 or 1, as in Fetch; any other is INVALID_REQUEST)
 * and each record's transaction status, and stops returning control records; v0–1 scan as they
 * did (read_uncommitted, markers shown to an unfiltered scan).
 */
export const weirScanRecordsHandler = defineHandler({
  api: WeirScanRecords,
  versions: { min: 0, max: 2 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.topic, request.topic)) {
      return {
        ...deniedError(RULES.topic),
        records: [],
        partitions: [],
        scannedRecords: 0,
        scannedBytes: 0n,
      };
    }
    try {
      const outcome = await services.operator.recordScan.scanRecords({
        topic: request.topic,
        partitions: request.partitions.map((range) => ({
          partition: range.partitionIndex,
          startOffset: safeOffset(range.startOffset),
          endOffset: safeOffset(range.endOffset),
        })),
        filters: request.filters,
        maxMatchesPerPartition: request.maxMatchesPerPartition,
        maxScanRecords: request.maxScanRecords,
        maxScanMs: request.maxScanMs,
        maxValueBytes: request.maxValueBytes,
        isolation: isolationOf(request.isolationLevel),
        includeControl: context.header.apiVersion < 2,
      });
      return {
        ...NO_ERROR,
        records: outcome.records.map((record) => ({
          partitionIndex: record.partition,
          offset: record.offset,
          timestampMs: record.timestampMs,
          logAppendTime: record.logAppendTime,
          key:
            record.key === null
              ? null
              : Buffer.from(record.key.buffer, record.key.byteOffset, record.key.length),
          keyBytes: record.keyBytes,
          value:
            record.value === null
              ? null
              : Buffer.from(record.value.buffer, record.value.byteOffset, record.value.length),
          valueBytes: record.valueBytes,
          headers: record.headers.map((header) => ({
            key: header.key,
            value:
              header.value === null
                ? null
                : Buffer.from(header.value.buffer, header.value.byteOffset, header.value.length),
          })),
          transactional: record.transactional,
          control: record.control,
          producerId: record.producerId,
          compression: compressionTypeId(record.compression),
          // Absent below v2; the encoder leaves fields out of versions that lack them.
          transactionStatus: SCAN_TRANSACTION_STATUS[record.transaction],
          producerEpoch: record.producerEpoch,
        })),
        partitions: outcome.partitions.map((progress) => ({
          partitionIndex: progress.partition,
          errorCode: progress.errorCode,
          nextOffset: BigInt(progress.nextOffset),
          endOffset: BigInt(progress.endOffset),
          done: progress.done,
        })),
        scannedRecords: outcome.scannedRecords,
        scannedBytes: BigInt(outcome.scannedBytes),
      };
    } catch (error) {
      return { ...context.failure(error), records: [], partitions: [], scannedRecords: 0, scannedBytes: 0n };
    }
  },
});

/** Fetch's isolation_level values; any other is refused as INVALID_REQUEST. */
function isolationOf(level: number): 'read_committed' | 'read_uncommitted' {
  if (level === 0) return 'read_uncommitted';
  if (level === 1) return 'read_committed';
  throw new WeirError(ErrorCode.INVALID_REQUEST, {
    detail: `isolationLevel ${level} is neither 0 (read_uncommitted) nor 1 (read_committed)`,
  });
}

/**
 * An int64 offset as a number. Offsets beyond 2^53 cannot exist in a Weir log; such a value is
 * passed on as NaN so the service's validation refuses it with INVALID_REQUEST.
 */
function safeOffset(offset: bigint): number {
  const value = Number(offset);
  return Number.isSafeInteger(value) ? value : Number.NaN;
}
