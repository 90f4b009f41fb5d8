import { ErrorCode, WeirError } from '@weir/protocol';
import type { CoordinatorLogger } from '../src/coordination/coordinator-shards';
import type { GroupCoordinator } from '../src/group/group-coordinator';
import type { ReplayReport } from '../src/topics/internal-topic-records';
import type { TransactionCoordinatorConfig } from '../src/txn/coordinator-types';
import type {
  TransactionMarkerWriter,
  WriteMarkersRequest,
  WrittenMarker,
} from '../src/txn/transaction-contracts';
import { TransactionCoordinator } from '../src/txn/transaction-coordinator';
import type { TransactionLogSource, TransactionStore } from '../src/txn/transaction-log';
import {
  newTransactionMetadata,
  partitionKey,
  type TransactionMetadata,
  transition,
} from '../src/txn/transaction-metadata';
import type { TransactionRecord } from '../src/txn/transaction-records';
import type { TransactionState } from '../src/txn/transaction-state';
import { HeldReplaySource, type ManualScheduler } from './group-fixtures';

/**
 * An in-memory `__transaction_state`: every record per partition, the partition and epoch of every
 * write, and a failure on demand. With `partitionCount` 0 it starts without a topic, which
 * `ensureCreated` makes with `createdPartitions` partitions (as a standalone broker's first
 * InitProducerId does).
 */
export class MemoryTransactionStore implements TransactionStore, TransactionLogSource {
  partitions: TransactionRecord[][];
  readonly writes: { partition: number; leaderEpoch: number; states: (TransactionState | 'tombstone')[] }[] =
    [];
  failWith: Error | undefined;
  /**
   * Called once the topic is created, as the replica layer tells the coordinator it leads the new
   * partitions (the test connects it to the coordinator's onBecomeLeader).
   */
  onCreated: ((partitionCount: number) => void) | undefined;

  constructor(
    partitionCount = 3,
    private readonly createdPartitions = 3,
  ) {
    this.partitions = Array.from({ length: partitionCount }, () => []);
  }

  get partitionCount(): number {
    return this.partitions.length;
  }

  async ensureCreated(): Promise<void> {
    if (this.partitions.length > 0) return;
    this.partitions = Array.from({ length: this.createdPartitions }, () => []);
    this.onCreated?.(this.partitions.length);
  }

  async write(partition: number, leaderEpoch: number, records: readonly TransactionRecord[]): Promise<void> {
    if (this.failWith) throw this.failWith;
    const log = this.partitions[partition];
    if (!log)
      throw new WeirError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, { detail: `no partition ${partition}` });
    log.push(...records);
    this.writes.push({
      partition,
      leaderEpoch,
      states: records.map((record) => record.value?.state ?? 'tombstone'),
    });
  }

  async replay(
    partition: number,
    _leaderEpoch: number,
    onRecord: (record: TransactionRecord) => void,
  ): Promise<ReplayReport> {
    const log = this.partitions[partition] ?? [];
    for (const record of log) onRecord(record);
    return { records: log.length, skipped: 0, outdated: 0 };
  }
}

/** The partition side of markers, recording every request; each partition answers NONE. */
export class RecordingMarkers implements TransactionMarkerWriter {
  readonly requests: WriteMarkersRequest[] = [];

  async writeMarkers(request: WriteMarkersRequest): Promise<WrittenMarker[]> {
    this.requests.push(request);
    return request.partitions.map((partition) => ({ ...partition, errorCode: ErrorCode.NONE }));
  }
}

export const TEST_TRANSACTION_CONFIG: TransactionCoordinatorConfig = {
  maxTimeoutMs: 900_000,
  idExpirationMs: 3_600_000,
  abortTimedOutCheckIntervalMs: 10_000,
  completionRetryMs: 1000,
};

/** A transactional id's stored state: an open transaction over t0-0 (and, when given, staged offsets). */
export function storedTransaction(
  transactionalId: string,
  state: TransactionState,
  fields: {
    producerId?: bigint;
    producerEpoch?: number;
    nowMs: number;
    timeoutMs?: number;
    offsets?: string;
  },
): TransactionMetadata {
  const metadata = newTransactionMetadata(transactionalId, {
    producerId: fields.producerId ?? 1n,
    producerEpoch: fields.producerEpoch ?? 0,
    timeoutMs: fields.timeoutMs ?? 60_000,
    nowMs: fields.nowMs,
  });
  if (state === 'Empty') return metadata;
  transition(metadata, 'Ongoing', fields.nowMs);
  const partition = { topic: 't0', partition: 0 };
  metadata.partitions.set(partitionKey(partition), partition);
  if (fields.offsets !== undefined) {
    metadata.offsetGroups.set(
      fields.offsets,
      new Map([[partitionKey(partition), { ...partition, offset: 42, leaderEpoch: -1, metadata: null }]]),
    );
  }
  // A finished transaction passes through its decision, as the table requires.
  const path: Partial<Record<TransactionState, TransactionState[]>> = {
    PrepareCommit: ['PrepareCommit'],
    PrepareAbort: ['PrepareAbort'],
    CompleteCommit: ['PrepareCommit', 'CompleteCommit'],
    CompleteAbort: ['PrepareAbort', 'CompleteAbort'],
  };
  for (const next of path[state] ?? []) transition(metadata, next, fields.nowMs);
  return metadata;
}

export interface TransactionFixture {
  coordinator: TransactionCoordinator;
  store: MemoryTransactionStore;
  source: HeldReplaySource<TransactionRecord>;
  markers: RecordingMarkers;
  logs: string[];
  /** Every open-transaction count the coordinator reported, in order. */
  openCounts: number[];
}

/**
 * A transaction coordinator that leads nothing yet, over an in-memory `__transaction_state` whose
 * replays the test releases, a recording marker writer and the given group coordinator for offsets.
 */
export function unledTransactionCoordinator(options: {
  scheduler: ManualScheduler;
  groups: GroupCoordinator;
  store?: MemoryTransactionStore;
}): TransactionFixture {
  const store = options.store ?? new MemoryTransactionStore();
  const source = new HeldReplaySource<TransactionRecord>(store);
  const markers = new RecordingMarkers();
  const logs: string[] = [];
  const openCounts: number[] = [];
  const logger: CoordinatorLogger = {
    info: (_fields, message) => logs.push(message),
    warn: (_fields, message) => logs.push(message),
  };
  let nextProducerId = 1000n;
  const coordinator = new TransactionCoordinator({
    config: TEST_TRANSACTION_CONFIG,
    store,
    source,
    scheduler: options.scheduler,
    logger,
    markers,
    offsets: options.groups,
    catalog: { hasPartition: (topic, partition) => /^t\d$/.test(topic) && partition >= 0 && partition < 4 },
    observer: {
      openTransactionsChanged: (open) => openCounts.push(open),
      transactionCompleted: () => undefined,
    },
    allocateProducerId: async () => nextProducerId++,
  });
  return { coordinator, store, source, markers, logs, openCounts };
}
