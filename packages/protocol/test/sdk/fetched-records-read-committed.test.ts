import { describe, expect, it } from 'vitest';
import { decodeFetchedRecords } from '../../src/client/fetched-records';
import { encodeTransactionMarkerBatch } from '../../src/records/control-record';
import { encodeRecordBatch } from '../../src/records/record-batch';

/** A batch of `count` records whose values are their offsets; transactional when a producer is given. */
function batch(baseOffset: bigint, count: number, producerId = -1n): Buffer {
  return encodeRecordBatch({
    baseOffset,
    records: Array.from({ length: count }, (_, index) => ({
      key: null,
      value: Buffer.from(String(baseOffset + BigInt(index))),
      timestampMs: 1000 + index,
    })),
    producerId,
    producerEpoch: producerId < 0n ? -1 : 0,
    baseSequence: producerId < 0n ? -1 : 0,
    isTransactional: producerId >= 0n,
  });
}

function marker(type: 'commit' | 'abort', producerId: bigint, baseOffset: bigint): Buffer {
  return encodeTransactionMarkerBatch({
    type,
    producerId,
    producerEpoch: 0,
    coordinatorEpoch: 0,
    timestampMs: 1,
    baseOffset,
  });
}

const values = (result: ReturnType<typeof decodeFetchedRecords>) =>
  result.records.map((record) => record.value?.toString());

describe('decodeFetchedRecords read_committed', () => {
  // 0-1 producer 7 (aborted), 2-3 producer 8 (committed), 4 plain, 5 ABORT 7, 6 COMMIT 8,
  // 7-8 producer 7 again (a later, committed transaction), 9 COMMIT 7.
  const log = Buffer.concat([
    batch(0n, 2, 7n),
    batch(2n, 2, 8n),
    batch(4n, 1),
    marker('abort', 7n, 5n),
    marker('commit', 8n, 6n),
    batch(7n, 2, 7n),
    marker('commit', 7n, 9n),
  ]);

  it('drops the aborted transaction up to its ABORT marker and keeps the rest', () => {
    const result = decodeFetchedRecords('t', 0, 0n, log, {
      kind: 'read_committed',
      abortedTransactions: [{ producerId: 7n, firstOffset: 0n }],
    });
    expect(values(result)).toEqual(['2', '3', '4', '7', '8']);
    expect(result.nextOffset).toBe(10n);
  });

  it('applies the list whatever its order, and only from each first offset on', () => {
    const twoAborts = Buffer.concat([
      batch(0n, 1, 7n), // 0: producer 7, committed below
      marker('commit', 7n, 1n),
      batch(2n, 1, 8n), // 2: aborted
      batch(3n, 1, 7n), // 3: aborted
      marker('abort', 8n, 4n),
      marker('abort', 7n, 5n),
      batch(6n, 1),
    ]);
    const result = decodeFetchedRecords('t', 0, 0n, twoAborts, {
      kind: 'read_committed',
      abortedTransactions: [
        { producerId: 7n, firstOffset: 3n },
        { producerId: 8n, firstOffset: 2n },
      ],
    });
    expect(values(result)).toEqual(['0', '6']);
    expect(result.nextOffset).toBe(7n);
  });

  it('reads everything without an aborted list, and read_uncommitted ignores the list', () => {
    expect(
      values(decodeFetchedRecords('t', 0, 0n, log, { kind: 'read_committed', abortedTransactions: null })),
    ).toEqual(['0', '1', '2', '3', '4', '7', '8']);
    expect(values(decodeFetchedRecords('t', 0, 0n, log))).toHaveLength(7);
  });

  it('still honours the ABORT marker of a batch below the fetch offset', () => {
    // Fetching from 6: the ABORT at 5 lies below the position, and producer 7's later batch is
    // committed data that must not be dropped.
    const result = decodeFetchedRecords('t', 0, 6n, log.subarray(log.indexOf(marker('abort', 7n, 5n))), {
      kind: 'read_committed',
      abortedTransactions: [{ producerId: 7n, firstOffset: 0n }],
    });
    expect(values(result)).toEqual(['7', '8']);
  });
});
