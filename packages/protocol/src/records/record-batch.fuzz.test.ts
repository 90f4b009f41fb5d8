import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsArbitrary } from '../../test/records/arbitraries';
import type { DecodeResult } from '../codec/decode-error';
import { COMPRESSION_TYPES } from './batch-attributes';
import { BatchLayout, CRC_START, checkBatch, readBatchHeader, verifyBatchCrc } from './batch-header';
import { splitBatches } from './batch-scanner';
import { decodeControlRecord, encodeTransactionMarkerBatch } from './control-record';
import { crc32c } from './crc32c';
import { decodeRecord } from './record';
import { decodeRecordBatch, encodeRecordBatch } from './record-batch';

/**
 * Fuzzing every decode entry point with random bytes, truncations and bit flips of valid batches:
 * 110,000 cases in all. Whatever the input, a decoder must return a DecodeResult and never throw.
 * A seeded generator keeps the cases reproducible and cheap to produce.
 */

const SEED = 0x5eed_1234;

function createRandom(seed: number): (limit: number) => number {
  let state = seed >>> 0 || 1;
  return (limit) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % limit;
  };
}

/**
 * Malformed results seen so far. Checked once per test rather than with `expect` per call, which
 * would cost more than the decoding itself.
 */
const malformed: string[] = [];

/** Records a result that is not a well-formed DecodeResult. */
function expectDecodeResult(result: DecodeResult<unknown>): void {
  if (result.ok === true) return;
  if (
    result.ok !== false ||
    typeof result.error?.kind !== 'string' ||
    typeof result.error.offset !== 'number'
  ) {
    malformed.push(JSON.stringify(result));
  }
}

/** A pool of valid batches over every codec, plus transaction markers. */
function validBatches(): Buffer[] {
  const samples = fc.sample(recordsArbitrary, { numRuns: 60, seed: SEED });
  const batches = samples.map((records, index) =>
    encodeRecordBatch({
      records,
      compression: COMPRESSION_TYPES[index % COMPRESSION_TYPES.length],
      baseOffset: BigInt(index * 1000),
    }),
  );
  batches.push(
    encodeTransactionMarkerBatch({
      type: 'abort',
      producerId: 5n,
      producerEpoch: 0,
      coordinatorEpoch: 1,
      timestampMs: 1,
    }),
  );
  return batches;
}

function decodeEverything(bytes: Buffer): DecodeResult<unknown> {
  expectDecodeResult(readBatchHeader(bytes));
  expectDecodeResult(verifyBatchCrc(bytes));
  expectDecodeResult(checkBatch(bytes));
  expectDecodeResult(splitBatches(bytes));
  expectDecodeResult(decodeRecord(bytes));
  const batch = decodeRecordBatch(bytes);
  expectDecodeResult(batch);
  if (batch.ok && (batch.value.attributes & 0x20) !== 0) {
    for (const record of batch.value.records) expectDecodeResult(decodeControlRecord(record));
  }
  return batch;
}

describe('decoder fuzzing', () => {
  const pool = validBatches();
  const random = createRandom(SEED);
  const pick = () => pool[random(pool.length)]!;

  it('never throws on random bytes (20,000 cases)', () => {
    for (let index = 0; index < 20_000; index++) {
      const bytes = Buffer.allocUnsafe(random(160));
      for (let at = 0; at < bytes.length; at++) bytes[at] = random(256);
      // Half of the cases get a plausible header prefix, so they reach past the first checks.
      if (index % 2 === 0 && bytes.length >= 17) {
        bytes.writeInt32BE(bytes.length - 12, BatchLayout.batchLength);
        bytes[BatchLayout.magic] = 2;
      }
      decodeEverything(bytes);
    }
    expect(malformed).toEqual([]);
  });

  it('rejects every truncation of a valid batch (30,000 cases)', () => {
    const accepted: number[] = [];
    for (let index = 0; index < 30_000; index++) {
      const batch = pick();
      const cut = random(batch.length);
      const result = decodeEverything(batch.subarray(0, cut));
      const split = splitBatches(batch.subarray(0, cut));
      if (result.ok || !split.ok || split.value.batches.length !== 0) accepted.push(cut);
    }
    expect(accepted).toEqual([]);
    expect(malformed).toEqual([]);
  });

  it('rejects bit flips inside the CRC-checked bytes and accepts them in offset and epoch (30,000 cases)', () => {
    const wrong: string[] = [];
    for (let index = 0; index < 30_000; index++) {
      const batch = Buffer.from(pick());
      const position = random(batch.length);
      batch[position]! ^= 1 << random(8);
      const result = decodeEverything(batch);
      const outsideCrc =
        position < BatchLayout.batchLength || (position >= 12 && position < BatchLayout.magic);
      if (result.ok !== outsideCrc) wrong.push(`flip at byte ${position}: ok=${result.ok}`);
    }
    expect(wrong).toEqual([]);
    expect(malformed).toEqual([]);
  });

  it('never throws when flipped bits come with a recomputed CRC, reaching records and codecs (30,000 cases)', () => {
    let decodedAnyway = 0;
    for (let index = 0; index < 30_000; index++) {
      const batch = Buffer.from(pick());
      const flips = 1 + random(3);
      for (let flip = 0; flip < flips; flip++) {
        batch[CRC_START + random(batch.length - CRC_START)]! ^= 1 << random(8);
      }
      batch.writeUInt32BE(crc32c(batch.subarray(CRC_START)), BatchLayout.crc);
      if (decodeEverything(batch).ok) decodedAnyway++;
    }
    // Some flips land in bytes whose every value is legal (record payloads), so both outcomes occur.
    expect(malformed).toEqual([]);
    expect(decodedAnyway).toBeGreaterThan(0);
    expect(decodedAnyway).toBeLessThan(30_000);
  });
});
