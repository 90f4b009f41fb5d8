import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsArbitrary } from '../../test/records/arbitraries';
import {
  BATCH_HEADER_BYTES,
  BatchLayout,
  batchLastOffset,
  batchSizeBytes,
  checkBatch,
  readBatchHeader,
  setBatchBaseOffset,
  setBatchLogAppendTime,
  setBatchMaxTimestamp,
  setBatchPartitionLeaderEpoch,
  verifyBatchCrc,
} from './batch-header';
import { crc32c } from './crc32c';
import { decodeRecordBatch, encodeRecordBatch } from './record-batch';

const sample = encodeRecordBatch({
  baseOffset: 1000n,
  partitionLeaderEpoch: 7,
  producerId: 42n,
  producerEpoch: 3,
  baseSequence: 10,
  isTransactional: true,
  records: [
    { key: Buffer.from('a'), value: Buffer.from('first'), timestampMs: 1_700_000_000_500 },
    { key: null, value: Buffer.from('second'), timestampMs: 1_700_000_000_100 },
    { key: Buffer.from('c'), value: null, timestampMs: 1_700_000_000_900 },
  ],
});

describe('readBatchHeader', () => {
  it('decodes every header field without touching the records', () => {
    const header = readBatchHeader(sample);
    if (!header.ok) throw header.error;
    expect(header.value).toEqual({
      baseOffset: 1000n,
      batchLength: sample.length - 12,
      partitionLeaderEpoch: 7,
      magic: 2,
      crc: sample.readUInt32BE(17),
      attributes: 0x10,
      lastOffsetDelta: 2,
      baseTimestampMs: 1_700_000_000_500,
      maxTimestampMs: 1_700_000_000_900,
      producerId: 42n,
      producerEpoch: 3,
      baseSequence: 10,
      recordCount: 3,
    });
    expect(batchSizeBytes(header.value)).toBe(sample.length);
    expect(batchLastOffset(header.value)).toBe(1002n);
  });

  it('needs only the 61 header bytes, at any offset in a larger buffer', () => {
    const padded = Buffer.concat([Buffer.alloc(5, 0xee), sample.subarray(0, BATCH_HEADER_BYTES)]);
    const header = readBatchHeader(padded, 5);
    expect(header.ok && header.value.baseOffset).toBe(1000n);
  });

  it('reports a short header, a wrong magic and impossible lengths as typed errors', () => {
    const short = readBatchHeader(sample.subarray(0, 60));
    expect(!short.ok && short.error.kind).toBe('truncated');

    const magicOne = Buffer.from(sample);
    magicOne[BatchLayout.magic] = 1;
    const magic = readBatchHeader(magicOne);
    expect(!magic.ok && magic.error.kind).toBe('unsupported-version');

    const tinyLength = Buffer.from(sample);
    tinyLength.writeInt32BE(48, BatchLayout.batchLength);
    const length = readBatchHeader(tinyLength);
    expect(!length.ok && length.error.kind).toBe('invalid-length');

    const negativeCount = Buffer.from(sample);
    negativeCount.writeInt32BE(-1, BatchLayout.recordCount);
    const count = readBatchHeader(negativeCount);
    expect(!count.ok && count.error.kind).toBe('invalid-length');
  });

  it('rejects a timestamp that is not a safe integer rather than rounding it', () => {
    const future = Buffer.from(sample);
    future.writeBigInt64BE(2n ** 60n, BatchLayout.maxTimestamp);
    const header = readBatchHeader(future);
    expect(!header.ok && header.error.kind).toBe('invalid-value');
  });
});

describe('verifyBatchCrc and checkBatch', () => {
  it('accept an intact batch and return the CRC over bytes 21 to the end', () => {
    const crc = verifyBatchCrc(sample);
    expect(crc).toEqual({ ok: true, value: crc32c(sample.subarray(21)) });
    expect(checkBatch(sample).ok).toBe(true);
  });

  it('fail with checksum-mismatch when any byte inside the CRC range is flipped', () => {
    for (let position = 21; position < sample.length; position++) {
      const corrupt = Buffer.from(sample);
      corrupt[position]! ^= 0x01;
      const result = verifyBatchCrc(corrupt);
      expect(result.ok, `flip at ${position}`).toBe(false);
      if (!result.ok) expect(result.error.kind).toBe('checksum-mismatch');
    }
  });

  it('fail with checksum-mismatch when the stored CRC itself is changed', () => {
    const corrupt = Buffer.from(sample);
    corrupt[BatchLayout.crc + 3]! ^= 0x80;
    const result = checkBatch(corrupt);
    expect(!result.ok && result.error.kind).toBe('checksum-mismatch');
  });

  it('report a batch cut short as truncated', () => {
    const result = checkBatch(sample.subarray(0, sample.length - 1));
    expect(!result.ok && result.error.kind).toBe('truncated');
  });
});

describe('in-place rewrites', () => {
  it('change baseOffset and leader epoch without invalidating the CRC', () => {
    fc.assert(
      fc.property(
        recordsArbitrary,
        fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
        fc.integer({ min: -1, max: 2 ** 31 - 1 }),
        (records, baseOffset, epoch) => {
          const batch = encodeRecordBatch({ records });
          const crcBefore = batch.readUInt32BE(BatchLayout.crc);
          setBatchBaseOffset(batch, baseOffset);
          setBatchPartitionLeaderEpoch(batch, epoch);
          expect(batch.readUInt32BE(BatchLayout.crc)).toBe(crcBefore);
          const checked = checkBatch(batch);
          if (!checked.ok) throw checked.error;
          expect(checked.value.baseOffset).toBe(baseOffset);
          expect(checked.value.partitionLeaderEpoch).toBe(epoch);
          const decoded = decodeRecordBatch(batch);
          if (!decoded.ok) throw decoded.error;
          expect(decoded.value.records.map((record) => record.offset)).toEqual(
            records.map((_, index) => baseOffset + BigInt(index)),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('rewrite a batch at an offset inside a larger buffer', () => {
    const log = Buffer.concat([sample, sample]);
    setBatchBaseOffset(log, 5n, sample.length);
    setBatchPartitionLeaderEpoch(log, 9, sample.length);
    const second = checkBatch(log, sample.length);
    expect(second.ok && [second.value.baseOffset, second.value.partitionLeaderEpoch]).toEqual([5n, 9]);
    const first = checkBatch(log, 0);
    expect(first.ok && first.value.baseOffset).toBe(1000n);
  });

  it('set LogAppendTime and recompute the CRC, so every record reports the append time', () => {
    const batch = Buffer.from(sample);
    setBatchLogAppendTime(batch, 1_800_000_000_000);
    const decoded = decodeRecordBatch(batch);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.value.attributes & 0x08).toBe(0x08);
    expect(decoded.value.maxTimestampMs).toBe(1_800_000_000_000);
    expect(decoded.value.records.map((record) => record.timestampMs)).toEqual([
      1_800_000_000_000, 1_800_000_000_000, 1_800_000_000_000,
    ]);
  });

  it('set the max timestamp of a CreateTime batch and recompute the CRC, records untouched', () => {
    const batch = Buffer.from(sample);
    const before = decodeRecordBatch(batch);
    if (!before.ok) throw before.error;
    const crc = setBatchMaxTimestamp(batch, 1_800_000_000_000);
    const after = decodeRecordBatch(batch);
    if (!after.ok) throw after.error;
    expect(after.value.crc).toBe(crc);
    expect(after.value.attributes).toBe(before.value.attributes);
    expect(after.value.maxTimestampMs).toBe(1_800_000_000_000);
    expect(after.value.records.map((record) => record.timestampMs)).toEqual(
      before.value.records.map((record) => record.timestampMs),
    );
  });
});
