import {
  BatchLayout,
  type CompressionType,
  checkBatch,
  crc32c,
  decodeRecordBatch,
  ErrorCode,
  encodeRecordBatch,
  type RecordBatchHeader,
  WeirError,
} from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { checkBatchTimestamps, timestampLimits } from './batch-timestamps';
import { DEFAULT_LOG_CONFIG, type LogConfig } from './log-config';
import type { AppendOrigin } from './log-validator';

const NOW_MS = 1_700_000_000_000;
const PARTITION = 'clicks-3';

interface BatchOptions {
  timestampsMs: readonly number[];
  maxTimestampMs?: number;
  compression?: CompressionType;
}

function batchOf(options: BatchOptions): Buffer {
  return encodeRecordBatch({
    records: options.timestampsMs.map((timestampMs, index) => ({
      key: Buffer.from(`k${index}`),
      value: Buffer.from(`value-${index}`.repeat(20)),
      timestampMs,
    })),
    ...(options.compression === undefined ? {} : { compression: options.compression }),
    ...(options.maxTimestampMs === undefined ? {} : { maxTimestampMs: options.maxTimestampMs }),
  });
}

function headerOf(batch: Buffer): RecordBatchHeader {
  const checked = checkBatch(batch);
  if (!checked.ok) throw checked.error;
  return checked.value;
}

function check(
  batch: Buffer,
  config: Partial<LogConfig> = {},
  origin: AppendOrigin = 'client',
): RecordBatchHeader {
  return checkBatchTimestamps(
    batch,
    headerOf(batch),
    origin,
    { ...DEFAULT_LOG_CONFIG, ...config },
    NOW_MS,
    PARTITION,
  );
}

function refusal(run: () => unknown): WeirError {
  try {
    run();
  } catch (error) {
    if (error instanceof WeirError) return error;
    throw error;
  }
  throw new Error('the batch was accepted');
}

function recordTimestamps(batch: Buffer): number[] {
  const decoded = decodeRecordBatch(batch);
  if (!decoded.ok) throw decoded.error;
  return decoded.value.records.map((record) => record.timestampMs);
}

describe('the max timestamp of a CreateTime batch', () => {
  const timestampsMs = [NOW_MS - 3000, NOW_MS - 1000, NOW_MS - 2000];

  for (const compression of ['none', 'gzip', 'zstd'] as const) {
    it(`is recomputed from the records when a producer leaves it at -1 (${compression})`, () => {
      const batch = batchOf({ timestampsMs, maxTimestampMs: -1, compression });
      const header = check(batch);
      expect(header.maxTimestampMs).toBe(NOW_MS - 1000);
      // The batch itself now says so, with a CRC that matches, and its records are untouched.
      expect(headerOf(batch)).toEqual(header);
      expect(recordTimestamps(batch)).toEqual(timestampsMs);
    });
  }

  it('is recomputed for a lone record whose max is not its base timestamp', () => {
    const batch = batchOf({
      timestampsMs: [NOW_MS - 500],
      maxTimestampMs: NOW_MS + 99_000,
      compression: 'lz4',
    });
    expect(check(batch).maxTimestampMs).toBe(NOW_MS - 500);
  });

  it('is recomputed for an uncompressed batch whose max is plausible but not the largest', () => {
    const batch = batchOf({ timestampsMs, maxTimestampMs: NOW_MS - 2500 });
    expect(check(batch).maxTimestampMs).toBe(NOW_MS - 1000);
    const overstated = batchOf({ timestampsMs, maxTimestampMs: NOW_MS + 60_000 });
    expect(check(overstated).maxTimestampMs).toBe(NOW_MS - 1000);
  });

  it('leaves a right header and its bytes alone', () => {
    const batch = batchOf({ timestampsMs });
    const before = Buffer.from(batch);
    expect(check(batch).maxTimestampMs).toBe(NOW_MS - 1000);
    expect(batch.equals(before)).toBe(true);
  });

  it('trusts a plausible compressed header without decompressing its records', () => {
    // Records that no codec can read, under a header a correct producer would write: only a read
    // of the records could tell, and without a limit the check does not read them.
    const batch = batchOf({ timestampsMs, compression: 'gzip' });
    batch.fill(0xee, BatchLayout.records + 10);
    batch.writeUInt32BE(crc32c(batch.subarray(BatchLayout.attributes)), BatchLayout.crc);
    expect(check(batch).maxTimestampMs).toBe(NOW_MS - 1000);
    // With a limit set the records must be read, and unreadable ones are refused.
    expect(refusal(() => check(batch, { timestampAfterMaxMs: 60_000 })).code).toBe(ErrorCode.CORRUPT_MESSAGE);
  });

  it('refuses an uncompressed batch whose records do not fill it as its count says', () => {
    const batch = batchOf({ timestampsMs });
    batch.writeInt32BE(2, BatchLayout.recordCount);
    batch.writeInt32BE(1, BatchLayout.lastOffsetDelta);
    batch.writeUInt32BE(crc32c(batch.subarray(BatchLayout.attributes)), BatchLayout.crc);
    const error = refusal(() => check(batch));
    expect(error.code).toBe(ErrorCode.CORRUPT_MESSAGE);
    expect(error.detail).toContain(PARTITION);
  });

  it('is not checked on a replica, which stores its leader’s batch byte for byte', () => {
    const batch = batchOf({ timestampsMs, maxTimestampMs: -1 });
    const before = Buffer.from(batch);
    expect(check(batch, { timestampBeforeMaxMs: 10 }, 'replication').maxTimestampMs).toBe(-1);
    expect(batch.equals(before)).toBe(true);
  });

  it('is recomputed for a coordinator’s batch too', () => {
    const batch = batchOf({ timestampsMs, maxTimestampMs: -1 });
    expect(check(batch, {}, 'coordinator').maxTimestampMs).toBe(NOW_MS - 1000);
  });
});

describe('the timestamp limits of a CreateTime topic', () => {
  it('refuse a record older than message.timestamp.before.max.ms, naming the partition', () => {
    const batch = batchOf({ timestampsMs: [NOW_MS, NOW_MS - 5000, NOW_MS] });
    const error = refusal(() => check(batch, { timestampBeforeMaxMs: 4000 }));
    expect(error.code).toBe(ErrorCode.INVALID_TIMESTAMP);
    expect(error.detail).toContain(PARTITION);
    expect(error.detail).toContain(String(NOW_MS - 5000));
    expect(check(batch, { timestampBeforeMaxMs: 5000 }).maxTimestampMs).toBe(NOW_MS);
  });

  it('refuse a record further ahead than message.timestamp.after.max.ms, compressed or not', () => {
    for (const compression of ['none', 'snappy'] as const) {
      const batch = batchOf({ timestampsMs: [NOW_MS, NOW_MS + 5000], compression });
      expect(refusal(() => check(batch, { timestampAfterMaxMs: 4999 })).code).toBe(
        ErrorCode.INVALID_TIMESTAMP,
      );
      expect(check(batch, { timestampAfterMaxMs: 5000 }).maxTimestampMs).toBe(NOW_MS + 5000);
    }
  });

  it('skip records without a timestamp, as Kafka does', () => {
    const batch = batchOf({ timestampsMs: [-1, -1] });
    expect(check(batch, { timestampBeforeMaxMs: 0, timestampAfterMaxMs: 0 }).maxTimestampMs).toBe(-1);
  });

  it('fall back to message.timestamp.difference.max.ms where they are left at no limit', () => {
    const unlimited = Number.POSITIVE_INFINITY;
    expect(
      timestampLimits({
        timestampBeforeMaxMs: unlimited,
        timestampAfterMaxMs: unlimited,
        timestampDifferenceMaxMs: 7,
      }),
    ).toEqual({ beforeMaxMs: 7, afterMaxMs: 7 });
    expect(
      timestampLimits({
        timestampBeforeMaxMs: 100,
        timestampAfterMaxMs: unlimited,
        timestampDifferenceMaxMs: 7,
      }),
    ).toEqual({ beforeMaxMs: 100, afterMaxMs: 7 });
    const old = batchOf({ timestampsMs: [NOW_MS - 5000] });
    expect(refusal(() => check(old, { timestampDifferenceMaxMs: 1000 })).code).toBe(
      ErrorCode.INVALID_TIMESTAMP,
    );
    expect(check(old, { timestampDifferenceMaxMs: 1000, timestampBeforeMaxMs: 10_000 }).maxTimestampMs).toBe(
      NOW_MS - 5000,
    );
  });
});

describe('a LogAppendTime topic', () => {
  const logAppendTime = { timestampType: 'LogAppendTime' } as const;

  it('takes records of any age, since the broker stamps its own time when it writes them', () => {
    const batch = batchOf({ timestampsMs: [NOW_MS - 86_400_000], maxTimestampMs: -1 });
    const before = Buffer.from(batch);
    check(batch, { ...logAppendTime, timestampBeforeMaxMs: 1000 });
    expect(batch.equals(before)).toBe(true);
  });

  it('refuses, like any topic, a producer’s batch marked LogAppendTime', () => {
    const batch = encodeRecordBatch({
      records: [{ value: Buffer.from('v'), timestampMs: NOW_MS }],
      timestampType: 'log-append-time',
    });
    expect(refusal(() => check(batch, logAppendTime)).code).toBe(ErrorCode.INVALID_TIMESTAMP);
    expect(refusal(() => check(batch)).code).toBe(ErrorCode.INVALID_TIMESTAMP);
  });
});
