import { ErrorCode, encodeRecordBatch, encodeTransactionMarkerBatch, type WeirError } from '@weir/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeBatch, temporaryDirectory } from '../../test/log-fixtures';
import { type ReplicaFixture, startReplicas } from '../../test/replica-fixtures';
import { RecordScan, type ScanRequest } from './record-scan';

/*
 * The scan against a real replica layer (a standalone broker's logs and metadata, no network), for
 * what the SDK cannot produce (transaction markers, written by the coordinator) and what needs a
 * controlled clock (the time limit).
 */

let directory: { path: string; cleanup(): Promise<void> };
let fixture: ReplicaFixture;

function scanRequest(overrides: Partial<ScanRequest> = {}): ScanRequest {
  return {
    topic: 't',
    partitions: [{ partition: 0, startOffset: 0, endOffset: -1 }],
    filters: [],
    maxMatchesPerPartition: 100,
    maxScanRecords: 1000,
    maxScanMs: 1000,
    maxValueBytes: 100,
    isolation: 'read_uncommitted',
    includeControl: true,
    ...overrides,
  };
}

function append(records: Buffer): Promise<unknown> {
  return fixture.replicas.appendRecords({
    topic: 't',
    partition: 0,
    records,
    acks: 1,
    timeoutMs: 1000,
    transactionalId: null,
  });
}

function scanWith(clock: { nowMs(): number }): RecordScan {
  return new RecordScan(fixture.view, fixture.replicas, clock);
}

beforeEach(async () => {
  directory = await temporaryDirectory('weir-scan-');
  // The one transactional producer here is a member of its transaction (no coordinator runs).
  fixture = await startReplicas(directory.path, { transactions: { membership: async () => 'member' } });
  await fixture.topics.createTopic({ name: 't', partitionCount: 1, configs: {} });
});

afterEach(async () => {
  await fixture.stop();
  await directory.cleanup();
});

describe('RecordScan', () => {
  it('flags transactional records and shows markers only to an unfiltered scan', async () => {
    const producer = { producerId: 7n, producerEpoch: 0 };
    await append(
      encodeRecordBatch({
        records: [
          { key: Buffer.from('a'), value: Buffer.from('paid'), timestampMs: 1_700_000_000_000 },
          { key: Buffer.from('b'), value: Buffer.from('paid'), timestampMs: 1_700_000_000_001 },
        ],
        ...producer,
        baseSequence: 0,
        isTransactional: true,
      }),
    );
    await fixture.replicas.appendTransactionMarker(
      't',
      0,
      encodeTransactionMarkerBatch({
        type: 'commit',
        coordinatorEpoch: 0,
        timestampMs: 1_700_000_000_002,
        ...producer,
      }),
    );
    const scan = scanWith({ nowMs: () => Date.now() });

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

  it('never returns markers to a v2 scan, which marks an open transaction and a committed one', async () => {
    const first = { producerId: 7n, producerEpoch: 0 };
    const second = { producerId: 8n, producerEpoch: 3 };
    const batch = (producer: typeof first, value: string) =>
      encodeRecordBatch({
        records: [{ key: null, value: Buffer.from(value), timestampMs: 1_700_000_000_000 }],
        ...producer,
        baseSequence: 0,
        isTransactional: true,
      });
    await append(batch(first, 'first'));
    await append(batch(second, 'second'));
    await fixture.replicas.appendTransactionMarker(
      't',
      0,
      encodeTransactionMarkerBatch({ type: 'commit', coordinatorEpoch: 0, timestampMs: 1, ...second }),
    );
    const scan = scanWith({ nowMs: () => Date.now() });
    const marked = await scan.scanRecords(scanRequest({ includeControl: false }));
    // The second transaction committed behind the first, still open one: past the stable offset.
    expect(marked.records.map((record) => [record.offset, record.transaction, record.producerEpoch])).toEqual(
      [
        [0n, 'open', 0],
        [1n, 'committed', 3],
      ],
    );
    expect(marked.scannedRecords).toBe(3);
    const committed = await scan.scanRecords(
      scanRequest({ includeControl: false, isolation: 'read_committed' }),
    );
    expect(committed.records).toEqual([]);
    expect(committed.partitions[0]).toMatchObject({ nextOffset: 0, endOffset: 0, done: true });
  });

  it('matches JSON paths in values and keys, and never in records that are not JSON', async () => {
    const values = [
      { key: '{"tenant":"a"}', value: '{"user":{"id":42},"items":[{"sku":"x-1"}]}' },
      { key: '{"tenant":"b"}', value: ' {"user":{"id":"42"},"items":[]}' },
      { key: 'plain', value: '{"user":{"id":7},"items":[{"sku":"y-2"}]}' },
      { key: 'plain', value: 'user.id = 42, not JSON' },
      { key: 'plain', value: '{"user": broken' },
    ];
    await append(
      encodeRecordBatch({
        records: values.map((record, index) => ({
          key: Buffer.from(record.key),
          value: Buffer.from(record.value),
          timestampMs: 1_700_000_000_000 + index,
        })),
      }),
    );
    const scan = scanWith({ nowMs: () => Date.now() });
    const offsets = async (filters: ScanRequest['filters']) =>
      (await scan.scanRecords(scanRequest({ filters }))).records.map((record) => Number(record.offset));
    const json = (field: string, path: string, operator: string, value: string) => ({
      field,
      operator,
      path,
      value: Buffer.from(value),
    });

    expect(await offsets([json('valueJson', 'user.id', 'equals', '42')])).toEqual([0, 1]);
    expect(await offsets([json('valueJson', 'items[0].sku', 'contains', '-')])).toEqual([0, 2]);
    expect(await offsets([json('valueJson', 'items[0].sku', 'notContains', 'x')])).toEqual([1, 2, 3, 4]);
    // Two JSON filters on one record are both checked (the parse is shared, not the answer).
    expect(
      await offsets([json('valueJson', 'user.id', 'equals', '42'), json('keyJson', 'tenant', 'equals', 'b')]),
    ).toEqual([1]);

    const refused = (filters: ScanRequest['filters']) =>
      scan.scanRecords(scanRequest({ filters })).then(
        () => undefined,
        (error: WeirError) => [error.code, error.message],
      );
    expect(await refused([json('valueJson', 'user..id', 'equals', '1')])).toEqual([
      ErrorCode.INVALID_REQUEST,
      expect.stringContaining('filter path "user..id"'),
    ]);
    expect(await refused([{ field: 'valueJson', operator: 'equals', value: Buffer.from('1') }])).toEqual([
      ErrorCode.INVALID_REQUEST,
      expect.stringContaining('needs a path'),
    ]);
    expect(await refused([json('value', 'user.id', 'equals', '1')])).toEqual([
      ErrorCode.INVALID_REQUEST,
      expect.stringContaining('takes no path'),
    ]);
  });

  it('stops at maxScanMs, checking the clock before each batch', async () => {
    for (let index = 0; index < 3; index++) {
      await append(makeBatch({ count: 2, label: `b${index}` }));
    }
    // Every reading of the clock is a second later than the one before.
    let nowMs = 0;
    const scan = scanWith({ nowMs: () => (nowMs += 1000) });
    const result = await scan.scanRecords(scanRequest({ maxScanMs: 1500 }));
    // The deadline is 1 s + 1.5 s; the first batch is read at 2 s, the second would be at 3 s.
    expect(result.records.map((record) => record.offset)).toEqual([0n, 1n]);
    expect(result.partitions).toEqual([
      { partition: 0, errorCode: ErrorCode.NONE, nextOffset: 2, endOffset: 6, done: false },
    ]);
  });

  it('moves a start below the log start up to it and cuts an end beyond the high watermark', async () => {
    await append(makeBatch({ count: 4 }));
    await fixture.replicas.deleteRecords({ topic: 't', partition: 0, offset: 2 });
    const scan = scanWith({ nowMs: () => Date.now() });
    const result = await scan.scanRecords(
      scanRequest({ partitions: [{ partition: 0, startOffset: 0, endOffset: 1000 }] }),
    );
    expect(result.records.map((record) => record.offset)).toEqual([2n, 3n]);
    expect(result.partitions[0]).toMatchObject({ nextOffset: 4, endOffset: 4, done: true });
  });
});
