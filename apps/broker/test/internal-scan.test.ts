import {
  type Admin,
  type Client,
  ErrorCode,
  InternalAdmin,
  Producer,
  type ProducerMessage,
  type RecordFilter,
  type ScannedRecord,
  type ScanRecordsRequest,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientSession, type InternalSession, internalSession, weirFailure } from './internal-fixtures';

let running: RunningBroker;
let session: InternalSession;
let data: { client: Client; admin: Admin };

/** Record i of partition 0 of "scan": keys, JSON values and headers that filters can tell apart. */
function scanRecord(index: number): ProducerMessage {
  const headers =
    index % 2 === 0
      ? [{ key: 'source', value: Buffer.from('web') }]
      : index % 4 === 1
        ? [
            { key: 'trace-id', value: Buffer.from(`t${index}`) },
            { key: 'source', value: Buffer.from('app') },
          ]
        : [];
  return {
    key: index === 5 ? null : `user-${index}`,
    value: `{"n":${index},"kind":"${index % 3 === 0 ? 'click' : 'view'}"}`,
    headers,
    partition: 0,
  };
}

const PARTITION_0_RECORDS = 12;
const PARTITION_1_RECORDS = 5;

beforeAll(async () => {
  running = await startBroker({ topics: { autoCreateEnable: false } });
  session = internalSession(running);
  data = clientSession(running);
  await data.admin.createTopics([
    { name: 'scan', partitions: 2 },
    { name: 'zipped', partitions: 1 },
  ]);
  const producer = new Producer(data.client, { lingerMs: 0 });
  // Three sends of four: three batches, so scans start inside and across batches.
  for (let first = 0; first < PARTITION_0_RECORDS; first += 4) {
    await producer.send({
      topic: 'scan',
      messages: Array.from({ length: 4 }, (_, offset) => scanRecord(first + offset)),
    });
  }
  await producer.send({
    topic: 'scan',
    messages: Array.from({ length: PARTITION_1_RECORDS }, (_, index) => ({
      key: `p1-${index}`,
      value: `value-${index}`,
      partition: 1,
    })),
  });
  await producer.close();
  for (const compression of ['gzip', 'zstd'] as const) {
    const compressing = new Producer(data.client, { lingerMs: 0, compression });
    await compressing.send({
      topic: 'zipped',
      messages: Array.from({ length: 10 }, (_, index) => ({ value: `${compression} record ${index}` })),
    });
    await compressing.close();
  }
});

afterAll(async () => {
  await session?.close();
  await data?.client.close();
  await running?.dispose();
});

function request(overrides: Partial<ScanRecordsRequest> = {}): ScanRecordsRequest {
  return {
    topic: 'scan',
    partitions: [
      { partition: 0, startOffset: 0n, endOffset: -1n },
      { partition: 1, startOffset: 0n, endOffset: -1n },
    ],
    filters: [],
    maxMatchesPerPartition: 1000,
    maxScanRecords: 100_000,
    maxScanMs: 5000,
    maxValueBytes: 1024,
    ...overrides,
  };
}

const offsetsOf = (records: readonly ScannedRecord[], partition = 0) =>
  records.filter((record) => record.partition === partition).map((record) => Number(record.offset));

const text = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString());

describe('scanRecords without filters', () => {
  it('returns every record of each partition in order, partitions in request order', async () => {
    const result = await session.internal.scanRecords(
      request({
        partitions: [
          { partition: 1, startOffset: 0n, endOffset: -1n },
          { partition: 0, startOffset: 0n, endOffset: -1n },
        ],
      }),
    );
    expect(result.records.map((record) => [record.partition, Number(record.offset)])).toEqual([
      ...Array.from({ length: PARTITION_1_RECORDS }, (_, index) => [1, index]),
      ...Array.from({ length: PARTITION_0_RECORDS }, (_, index) => [0, index]),
    ]);
    expect(result.partitions).toEqual([
      { partition: 1, nextOffset: 5n, endOffset: 5n, done: true },
      { partition: 0, nextOffset: 12n, endOffset: 12n, done: true },
    ]);
    expect(result.scannedRecords).toBe(PARTITION_0_RECORDS + PARTITION_1_RECORDS);
    expect(result.scannedBytes).toBeGreaterThan(0);
    const first = result.records.find((record) => record.partition === 0 && record.offset === 1n)!;
    expect(text(first.key)).toBe('user-1');
    expect(text(first.value)).toBe('{"n":1,"kind":"view"}');
    expect(first.headers.map((header) => [header.key, text(header.value)])).toEqual([
      ['trace-id', 't1'],
      ['source', 'app'],
    ]);
    expect(first).toMatchObject({
      keyBytes: 6,
      valueBytes: 21,
      transactional: false,
      control: false,
      compression: 'none',
      logAppendTime: false,
    });
    expect(first.timestampMs).toBeGreaterThan(0n);
    const nullKey = result.records.find((record) => record.partition === 0 && record.offset === 5n)!;
    expect(nullKey).toMatchObject({ key: null, keyBytes: -1 });
  });

  it('starts inside a batch and stops at an end offset inside another', async () => {
    const result = await session.internal.scanRecords(
      request({ partitions: [{ partition: 0, startOffset: 2n, endOffset: 6n }] }),
    );
    expect(offsetsOf(result.records)).toEqual([2, 3, 4, 5]);
    expect(result.partitions).toEqual([{ partition: 0, nextOffset: 6n, endOffset: 6n, done: true }]);
    expect(result.scannedRecords).toBe(4);
  });
});

describe('scanRecords filters', () => {
  const cases: { name: string; filters: RecordFilter[]; offsets: number[] }[] = [
    {
      name: 'value contains',
      filters: [{ field: 'value', operator: 'contains', value: '"click"' }],
      offsets: [0, 3, 6, 9],
    },
    { name: 'key equals', filters: [{ field: 'key', operator: 'equals', value: 'user-1' }], offsets: [1] },
    {
      name: 'key contains',
      filters: [{ field: 'key', operator: 'contains', value: 'user-1' }],
      offsets: [1, 10, 11],
    },
    {
      name: 'key notContains (a null key contains nothing)',
      filters: [{ field: 'key', operator: 'notContains', value: 'user-1' }],
      offsets: [0, 2, 3, 4, 5, 6, 7, 8, 9],
    },
    {
      name: 'headerKey equals',
      filters: [{ field: 'headerKey', operator: 'equals', value: 'trace-id' }],
      offsets: [1, 5, 9],
    },
    {
      name: 'headerKey contains',
      filters: [{ field: 'headerKey', operator: 'contains', value: 'trace' }],
      offsets: [1, 5, 9],
    },
    {
      name: 'headerKey notContains (no header has it)',
      filters: [{ field: 'headerKey', operator: 'notContains', value: 'source' }],
      offsets: [3, 7, 11],
    },
    {
      name: 'headerValue contains',
      filters: [{ field: 'headerValue', operator: 'contains', value: 'ap' }],
      offsets: [1, 5, 9],
    },
    {
      name: 'headerValue equals',
      filters: [{ field: 'headerValue', operator: 'equals', value: 't9' }],
      offsets: [9],
    },
    {
      name: 'headerValue notContains',
      filters: [{ field: 'headerValue', operator: 'notContains', value: 'web' }],
      offsets: [1, 3, 5, 7, 9, 11],
    },
    {
      name: 'several filters, ANDed',
      filters: [
        { field: 'value', operator: 'contains', value: 'view' },
        { field: 'headerValue', operator: 'equals', value: 'web' },
      ],
      offsets: [2, 4, 8, 10],
    },
  ];

  it.each(cases)('$name', async ({ filters, offsets }) => {
    const result = await session.internal.scanRecords(request({ filters }));
    expect(offsetsOf(result.records)).toEqual(offsets);
    // Every record was examined, matching or not.
    expect(result.scannedRecords).toBe(PARTITION_0_RECORDS + PARTITION_1_RECORDS);
    expect(result.partitions.every((partition) => partition.done)).toBe(true);
  });

  it('stops a partition at its match limit, just after its last match', async () => {
    const result = await session.internal.scanRecords(
      request({
        filters: [{ field: 'value', operator: 'contains', value: '"click"' }],
        maxMatchesPerPartition: 2,
      }),
    );
    expect(offsetsOf(result.records)).toEqual([0, 3]);
    expect(result.partitions).toEqual([
      { partition: 0, nextOffset: 4n, endOffset: 12n, done: false },
      { partition: 1, nextOffset: 5n, endOffset: 5n, done: true },
    ]);
  });

  it('stops the call at maxScanRecords and says where each partition continues', async () => {
    const result = await session.internal.scanRecords(request({ maxScanRecords: 3 }));
    expect(result.scannedRecords).toBe(3);
    // Partitions take turns a read at a time; the first read of partition 0 spends the budget.
    expect(offsetsOf(result.records)).toEqual([0, 1, 2]);
    expect(result.partitions).toEqual([
      { partition: 0, nextOffset: 3n, endOffset: 12n, done: false },
      { partition: 1, nextOffset: 0n, endOffset: 5n, done: false },
    ]);
  });

  it('cuts keys, values and header values to maxValueBytes and keeps their sizes', async () => {
    const result = await session.internal.scanRecords(
      request({ partitions: [{ partition: 0, startOffset: 1n, endOffset: 2n }], maxValueBytes: 2 }),
    );
    const [record] = result.records;
    expect(text(record!.key)).toBe('us');
    expect(record!.keyBytes).toBe(6);
    expect(text(record!.value)).toBe('{"');
    expect(record!.valueBytes).toBe(21);
    expect(record!.headers.map((header) => [header.key, text(header.value)])).toEqual([
      ['trace-id', 't1'],
      ['source', 'ap'],
    ]);
  });
});

describe('scanRecords continuation', () => {
  const filterChoices: RecordFilter[][] = [
    [],
    [{ field: 'value', operator: 'contains', value: 'view' }],
    [{ field: 'headerKey', operator: 'equals', value: 'trace-id' }],
    [{ field: 'key', operator: 'notContains', value: '1' }],
  ];

  /** Scans to the end in small steps, feeding each call the previous call's next offsets. */
  async function scanInSteps(filters: RecordFilter[], maxScanRecords: number, maxMatches: number) {
    const found: ScannedRecord[] = [];
    let ranges = request().partitions;
    let calls = 0;
    while (ranges.length > 0) {
      calls += 1;
      if (calls > 200) throw new Error('the scan does not make progress');
      const step = await session.internal.scanRecords(
        request({ filters, partitions: ranges, maxScanRecords, maxMatchesPerPartition: maxMatches }),
      );
      found.push(...step.records);
      ranges = step.partitions
        .filter((progress) => !progress.done)
        .map((progress) => ({
          partition: progress.partition,
          startOffset: progress.nextOffset,
          endOffset: progress.endOffset,
        }));
    }
    return found;
  }

  it('finds in many small steps exactly what one large call finds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...filterChoices),
        fc.integer({ min: 1, max: 7 }),
        fc.integer({ min: 1, max: 5 }),
        async (filters, maxScanRecords, maxMatches) => {
          const whole = await session.internal.scanRecords(request({ filters }));
          const stepped = await scanInSteps(filters, maxScanRecords, maxMatches);
          const key = (record: ScannedRecord) => `${record.partition}:${record.offset}`;
          expect(stepped.map(key).sort()).toEqual(whole.records.map(key).sort());
          expect(offsetsOf(stepped, 0)).toEqual(offsetsOf(whole.records, 0));
          expect(offsetsOf(stepped, 1)).toEqual(offsetsOf(whole.records, 1));
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('scanRecords on compressed batches', () => {
  it('decompresses gzip and zstd batches and names their codec', async () => {
    const result = await session.internal.scanRecords(
      request({ topic: 'zipped', partitions: [{ partition: 0, startOffset: 0n, endOffset: -1n }] }),
    );
    expect(result.records).toHaveLength(20);
    expect(result.records.slice(0, 10).every((record) => record.compression === 'gzip')).toBe(true);
    expect(result.records.slice(10).every((record) => record.compression === 'zstd')).toBe(true);
    expect(text(result.records[13]!.value)).toBe('zstd record 3');
    const filtered = await session.internal.scanRecords(
      request({
        topic: 'zipped',
        partitions: [{ partition: 0, startOffset: 5n, endOffset: -1n }],
        filters: [{ field: 'value', operator: 'contains', value: 'record 7' }],
      }),
    );
    expect(filtered.records.map((record) => [Number(record.offset), record.compression])).toEqual([
      [7, 'gzip'],
      [17, 'zstd'],
    ]);
    expect(filtered.scannedRecords).toBe(15);
  });
});

describe('scanRecords refusals', () => {
  const invalid: { name: string; overrides: Partial<ScanRecordsRequest> }[] = [
    { name: 'maxScanRecords 0', overrides: { maxScanRecords: 0 } },
    { name: 'maxScanRecords above 1,000,000', overrides: { maxScanRecords: 1_000_001 } },
    { name: 'maxScanMs 0', overrides: { maxScanMs: 0 } },
    { name: 'maxScanMs above 5,000', overrides: { maxScanMs: 5001 } },
    { name: 'maxMatchesPerPartition 0', overrides: { maxMatchesPerPartition: 0 } },
    { name: 'a negative maxValueBytes', overrides: { maxValueBytes: -1 } },
    { name: 'no partitions', overrides: { partitions: [] } },
    {
      name: 'a partition twice',
      overrides: {
        partitions: [
          { partition: 0, startOffset: 0n, endOffset: -1n },
          { partition: 0, startOffset: 3n, endOffset: -1n },
        ],
      },
    },
    {
      name: 'a negative start',
      overrides: { partitions: [{ partition: 0, startOffset: -1n, endOffset: -1n }] },
    },
    {
      name: 'an end before the start',
      overrides: { partitions: [{ partition: 0, startOffset: 5n, endOffset: 4n }] },
    },
    {
      name: 'an unknown filter field',
      overrides: { filters: [{ field: 'body' as 'key', operator: 'contains', value: 'x' }] },
    },
    {
      name: 'an unknown filter operator',
      overrides: { filters: [{ field: 'key', operator: 'startsWith' as 'equals', value: 'x' }] },
    },
  ];

  it.each(invalid)('refuses $name with INVALID_REQUEST', async ({ overrides }) => {
    const error = await weirFailure(session.internal.scanRecords(request(overrides)));
    expect(error.code).toBe(ErrorCode.INVALID_REQUEST);
  });

  it('refuses an unknown topic or partition with UNKNOWN_TOPIC_OR_PARTITION', async () => {
    const topic = await weirFailure(session.internal.scanRecords(request({ topic: 'missing' })));
    expect(topic.code).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    const partition = await weirFailure(
      session.internal.scanRecords(
        request({ partitions: [{ partition: 2, startOffset: 0n, endOffset: -1n }] }),
      ),
    );
    expect(partition.code).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  });

  it('is not served on the client listener', async () => {
    const outsider = new InternalAdmin(data.client);
    const error = await weirFailure(outsider.scanRecords(request()));
    expect(error.code).toBe(ErrorCode.UNSUPPORTED_VERSION);
  });
});
