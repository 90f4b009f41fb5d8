import {
  type Client,
  ErrorCode,
  Producer,
  type ScannedRecord,
  type ScanRecordsRequest,
  TransactionalProducer,
  WeirScanRecords,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientSession, type InternalSession, internalSession } from './internal-fixtures';

/*
 * WeirScanRecords v2 against a real broker: transactions committed, aborted and left open by the
 * SDK's transactional producer, marked in a read_uncommitted scan and filtered by a
 * read_committed one, which stops at the last stable offset until the open transaction commits.
 */

const TOPIC = 'txn-scan';

let running: RunningBroker;
let session: InternalSession;
let data: { client: Client };
let plain: Producer;
let open: TransactionalProducer;

beforeAll(async () => {
  running = await startBroker({ topics: { autoCreateEnable: false } });
  session = internalSession(running);
  data = clientSession(running);
  await clientSession(running).admin.createTopics([{ name: TOPIC, partitions: 1 }]);
  plain = new Producer(data.client, { lingerMs: 0 });
  const sendPlain = (value: string) => plain.send({ topic: TOPIC, messages: [{ value }] });

  await sendPlain('plain-0');
  const committer = new TransactionalProducer(data.client, { transactionalId: 'scan-committer' });
  await committer.initTransactions();
  committer.beginTransaction();
  await committer.send({ topic: TOPIC, messages: [{ value: 'committed-1' }, { value: 'committed-2' }] });
  await committer.commitTransaction();
  await committer.close();

  const aborter = new TransactionalProducer(data.client, { transactionalId: 'scan-aborter' });
  await aborter.initTransactions();
  aborter.beginTransaction();
  await aborter.send({ topic: TOPIC, messages: [{ value: 'aborted-1' }] });
  await aborter.abortTransaction();
  await aborter.close();

  await sendPlain('plain-1');
  open = new TransactionalProducer(data.client, {
    transactionalId: 'scan-open',
    transactionTimeoutMs: 600_000,
  });
  await open.initTransactions();
  open.beginTransaction();
  await open.send({ topic: TOPIC, messages: [{ value: 'open-1' }] });
  // Not transactional, but past the last stable offset: read_committed does not reach it either.
  await sendPlain('plain-2');
});

afterAll(async () => {
  await open?.close();
  await plain?.close();
  await session?.close();
  await data?.client.close();
  await running?.dispose();
});

function request(overrides: Partial<ScanRecordsRequest> = {}): ScanRecordsRequest {
  return {
    topic: TOPIC,
    partitions: [{ partition: 0, startOffset: 0n, endOffset: -1n }],
    filters: [],
    maxMatchesPerPartition: 1000,
    maxScanRecords: 10_000,
    maxScanMs: 5000,
    maxValueBytes: 1024,
    ...overrides,
  };
}

const text = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString());
const statuses = (records: readonly ScannedRecord[]) =>
  records.map((record) => [text(record.value), record.transaction]);
const offsetOf = (records: readonly ScannedRecord[], value: string) =>
  records.find((record) => text(record.value) === value)!.offset;

describe('WeirScanRecords v2 transaction marks', () => {
  it('marks each record read_uncommitted and never returns the markers', async () => {
    const result = await session.internal.scanRecords(request());
    expect(statuses(result.records)).toEqual([
      ['plain-0', 'none'],
      ['committed-1', 'committed'],
      ['committed-2', 'committed'],
      ['aborted-1', 'aborted'],
      ['plain-1', 'none'],
      ['open-1', 'open'],
      ['plain-2', 'none'],
    ]);
    expect(result.records.some((record) => record.control)).toBe(false);
    // The COMMIT and ABORT markers were examined too: the scan went over the whole log.
    expect(result.scannedRecords).toBe(9);
    const aborted = result.records.find((record) => text(record.value) === 'aborted-1')!;
    expect(aborted.transactional).toBe(true);
    expect(aborted.producerId).toBeGreaterThanOrEqual(0n);
    expect(aborted.producerEpoch).toBeGreaterThanOrEqual(0);
    const hwm = result.partitions[0]!.endOffset;
    expect(hwm).toBe(offsetOf(result.records, 'plain-2') + 1n);
  });

  it('reads committed: skips the aborted records and stops at the last stable offset', async () => {
    const everything = await session.internal.scanRecords(request());
    const result = await session.internal.scanRecords(request({ isolation: 'read_committed' }));
    expect(statuses(result.records)).toEqual([
      ['plain-0', 'none'],
      ['committed-1', 'committed'],
      ['committed-2', 'committed'],
      ['plain-1', 'none'],
    ]);
    const lastStableOffset = offsetOf(everything.records, 'open-1');
    expect(result.partitions).toEqual([
      { partition: 0, nextOffset: lastStableOffset, endOffset: lastStableOffset, done: true },
    ]);
    const filtered = await session.internal.scanRecords(
      request({
        isolation: 'read_committed',
        filters: [{ field: 'value', operator: 'contains', value: 'aborted' }],
      }),
    );
    expect(filtered.records).toEqual([]);
    const uncommitted = await session.internal.scanRecords(
      request({ filters: [{ field: 'value', operator: 'contains', value: 'aborted' }] }),
    );
    expect(statuses(uncommitted.records)).toEqual([['aborted-1', 'aborted']]);
  });

  it('refuses an isolation level Fetch does not define, and keeps serving', async () => {
    const answer = await session.client.send('any', WeirScanRecords, {
      topic: TOPIC,
      partitions: [{ partitionIndex: 0, startOffset: 0n, endOffset: -1n }],
      filters: [],
      maxMatchesPerPartition: 10,
      maxScanRecords: 10,
      maxScanMs: 1000,
      maxValueBytes: 10,
      isolationLevel: 2,
    });
    expect(answer.errorCode).toBe(ErrorCode.INVALID_REQUEST);
    expect(answer.errorMessage).toContain('isolationLevel 2');
    expect((await session.internal.scanRecords(request())).records).toHaveLength(7);
  });

  // Last: it commits the open transaction the tests above rely on.
  it('marks the open records committed once their transaction commits', async () => {
    await open.commitTransaction();
    const uncommitted = await session.internal.scanRecords(request());
    expect(statuses(uncommitted.records)).toEqual([
      ['plain-0', 'none'],
      ['committed-1', 'committed'],
      ['committed-2', 'committed'],
      ['aborted-1', 'aborted'],
      ['plain-1', 'none'],
      ['open-1', 'committed'],
      ['plain-2', 'none'],
    ]);
    const committed = await session.internal.scanRecords(request({ isolation: 'read_committed' }));
    expect(statuses(committed.records)).toEqual([
      ['plain-0', 'none'],
      ['committed-1', 'committed'],
      ['committed-2', 'committed'],
      ['plain-1', 'none'],
      ['open-1', 'committed'],
      ['plain-2', 'none'],
    ]);
    expect(committed.partitions[0]!.done).toBe(true);
    // The COMMIT marker closed the last open transaction: the stable offset is the high watermark.
    expect(committed.partitions[0]!.endOffset).toBe(uncommitted.partitions[0]!.endOffset);
  });
});
