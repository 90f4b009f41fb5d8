import { ErrorCode, encodeRecordBatch, encodeTransactionMarkerBatch } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManager, makeBatch, temporaryDirectory } from '../../test/log-fixtures';
import type { LogManager } from '../log/log-manager';
import type { PartitionLog } from '../log/partition-log';
import type { TopicManager } from '../topics/topic-manager';
import { RecordScanCommands, type ScanRequest } from './record-scan-commands';

/*
 * The scan command against a real partition log, for what the SDK cannot produce (transaction
 * markers, written by the coordinator) and what needs a controlled clock (the time limit).
 */

let directory: { path: string; cleanup(): Promise<void> };
let manager: LogManager;
let log: PartitionLog;

/** The catalogue the command needs: one topic "t" with one partition. */
const catalogue = {
  getTopic: (name: string) => (name === 't' ? { name: 't', partitionCount: 1 } : undefined),
} as unknown as TopicManager;

function scanRequest(overrides: Partial<ScanRequest> = {}): ScanRequest {
  return {
    topic: 't',
    partitions: [{ partition: 0, startOffset: 0, endOffset: -1 }],
    filters: [],
    maxMatchesPerPartition: 100,
    maxScanRecords: 1000,
    maxScanMs: 1000,
    maxValueBytes: 100,
    ...overrides,
  };
}

beforeEach(async () => {
  directory = await temporaryDirectory('weir-scan-');
  manager = createManager(directory.path);
  await manager.start();
  log = await manager.createLog('t', 0);
});

afterEach(async () => {
  await manager.shutdown();
  await directory.cleanup();
});

describe('RecordScanCommands', () => {
  it('flags transactional records and shows markers only to an unfiltered scan', async () => {
    const producer = { producerId: 7n, producerEpoch: 0 };
    await log.append(
      encodeRecordBatch({
        records: [
          { key: Buffer.from('a'), value: Buffer.from('paid'), timestampMs: 1_700_000_000_000 },
          { key: Buffer.from('b'), value: Buffer.from('paid'), timestampMs: 1_700_000_000_001 },
        ],
        ...producer,
        baseSequence: 0,
        isTransactional: true,
      }),
      { origin: 'client', durable: false },
    );
    await log.append(
      encodeTransactionMarkerBatch({
        type: 'commit',
        coordinatorEpoch: 0,
        timestampMs: 1_700_000_000_002,
        ...producer,
      }),
      { origin: 'coordinator', durable: false },
    );
    const scan = new RecordScanCommands(catalogue, manager, { nowMs: () => Date.now() });

    const browse = await scan.scanRecords(scanRequest());
    expect(browse.records.map((record) => [record.offset, record.transactional, record.control])).toEqual([
      [0n, true, false],
      [1n, true, false],
      [2n, true, true],
    ]);
    expect(browse.records.every((record) => record.producerId === 7n)).toBe(true);

    // "paid" is in no marker, and a notContains filter that every record passes still never
    // matches the marker: filters look for data.
    const filtered = await scan.scanRecords(
      scanRequest({ filters: [{ field: 'value', operator: 'notContains', value: Buffer.from('zzz') }] }),
    );
    expect(filtered.records.map((record) => record.offset)).toEqual([0n, 1n]);
    expect(filtered.scannedRecords).toBe(3);
    expect(filtered.partitions[0]).toMatchObject({ nextOffset: 3, done: true });
  });

  it('stops at maxScanMs, checking the clock before each batch', async () => {
    for (let index = 0; index < 3; index++) {
      await log.append(makeBatch({ count: 2, label: `b${index}` }), { origin: 'client', durable: false });
    }
    // Every reading of the clock is a second later than the one before.
    let nowMs = 0;
    const scan = new RecordScanCommands(catalogue, manager, { nowMs: () => (nowMs += 1000) });
    const result = await scan.scanRecords(scanRequest({ maxScanMs: 1500 }));
    // The deadline is 1 s + 1.5 s; the first batch is read at 2 s, the second would be at 3 s.
    expect(result.records.map((record) => record.offset)).toEqual([0n, 1n]);
    expect(result.partitions).toEqual([
      { partition: 0, errorCode: ErrorCode.NONE, nextOffset: 2, endOffset: 6, done: false },
    ]);
  });

  it('moves a start below the log start up to it and cuts an end beyond the high watermark', async () => {
    await log.append(makeBatch({ count: 4 }), { origin: 'client', durable: false });
    await log.deleteRecordsBefore(2);
    const scan = new RecordScanCommands(catalogue, manager, { nowMs: () => Date.now() });
    const result = await scan.scanRecords(
      scanRequest({ partitions: [{ partition: 0, startOffset: 0, endOffset: 1000 }] }),
    );
    expect(result.records.map((record) => record.offset)).toEqual([2n, 3n]);
    expect(result.partitions[0]).toMatchObject({ nextOffset: 4, endOffset: 4, done: true });
  });
});
