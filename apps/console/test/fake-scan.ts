import type {
  OffsetQuery,
  PartitionOffset,
  PartitionOffsetRange,
  RecordFilter,
  ScannedRecord,
  ScanRecordsRequest,
  ScanRecordsResult,
} from '@weir/protocol';

/*
 * An in-memory stand-in for the broker's scanRecords and the admin's offset lookups, following the
 * contract in internal-admin-types.ts, so the search engine can be tested step by step.
 */

export interface FakeRecord {
  readonly partition: number;
  readonly offset: bigint;
  readonly timestampMs: bigint;
  readonly value: string;
}

const encoder = new TextEncoder();

function scanned(record: FakeRecord): ScannedRecord {
  const value = encoder.encode(record.value);
  return {
    partition: record.partition,
    offset: record.offset,
    timestampMs: record.timestampMs,
    logAppendTime: false,
    key: null,
    keyBytes: -1,
    value,
    valueBytes: value.length,
    headers: [],
    transactional: false,
    control: false,
    producerId: -1n,
    producerEpoch: -1,
    transaction: 'none',
    compression: 'none',
  };
}

function matches(record: FakeRecord, filters: readonly RecordFilter[]): boolean {
  return filters.every((filter) => {
    if (filter.field !== 'value') throw new Error('the fake only filters values');
    if (filter.operator === 'contains') return record.value.includes(filter.value);
    if (filter.operator === 'notContains') return !record.value.includes(filter.value);
    return record.value === filter.value;
  });
}

export class FakeTopic {
  readonly partitions: FakeRecord[][];
  scanCalls = 0;
  /** Runs before each scan answers (tests use it to abort or move the clock). */
  onScan: (request: ScanRecordsRequest) => void = () => {};

  constructor(partitions: FakeRecord[][]) {
    this.partitions = partitions;
  }

  async topicOffsets(): Promise<PartitionOffsetRange[]> {
    return this.partitions.map((records, partition) => ({
      partition,
      earliest: 0n,
      latest: BigInt(records.length),
    }));
  }

  async listOffsets(queries: readonly OffsetQuery[]): Promise<PartitionOffset[]> {
    return queries.map((query) => {
      const spec = query.spec as { timestampMs: number };
      const found = this.partitions[query.partition]!.find(
        (record) => record.timestampMs >= BigInt(spec.timestampMs),
      );
      return {
        topic: query.topic,
        partition: query.partition,
        offset: found?.offset ?? -1n,
        timestampMs: null,
      };
    });
  }

  async scanRecords(request: ScanRecordsRequest): Promise<ScanRecordsResult> {
    this.scanCalls++;
    this.onScan(request);
    let budget = request.maxScanRecords;
    const records: ScannedRecord[] = [];
    const progress = request.partitions.map((range) => {
      const log = this.partitions[range.partition]!;
      const end = range.endOffset < 0n ? BigInt(log.length) : range.endOffset;
      let next = range.startOffset;
      let found = 0;
      while (next < end && budget > 0 && found < request.maxMatchesPerPartition) {
        const record = log[Number(next)]!;
        budget--;
        next++;
        if (matches(record, request.filters)) {
          records.push(scanned(record));
          found++;
        }
      }
      return { partition: range.partition, nextOffset: next, endOffset: end, done: next >= end };
    });
    return {
      records,
      partitions: progress,
      scannedRecords: request.maxScanRecords - budget,
      scannedBytes: 0,
    };
  }
}

/** Three partitions with interleaved, partly out-of-order timestamps; every third value has "x". */
export function threePartitionTopic(perPartition: number): FakeTopic {
  return new FakeTopic(
    [0, 1, 2].map((partition) =>
      Array.from({ length: perPartition }, (_, index) => ({
        partition,
        offset: BigInt(index),
        // Mostly rising with the offset, with a jitter that sometimes goes back in time.
        timestampMs: BigInt(1_000 + index * 10 + ((index * 7 + partition * 3) % 13) - 6),
        value: `${partition}-${index}${(index + partition) % 3 === 0 ? '-x' : ''}`,
      })),
    ),
  );
}
