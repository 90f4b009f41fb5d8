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
    // Offsets may have gaps (as compaction leaves them): the end is one past the last record.
    return this.partitions.map((records, partition) => ({
      partition,
      earliest: 0n,
      latest: records.length === 0 ? 0n : records.at(-1)!.offset + 1n,
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
      const end = range.endOffset < 0n ? (log.at(-1)?.offset ?? -1n) + 1n : range.endOffset;
      let next = range.startOffset;
      let index = log.findIndex((record) => record.offset >= next);
      let found = 0;
      while (next < end && budget > 0 && found < request.maxMatchesPerPartition) {
        const record = index < 0 ? undefined : log[index];
        if (record === undefined || record.offset >= end) {
          next = end;
          break;
        }
        budget--;
        index++;
        next = record.offset + 1n;
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
