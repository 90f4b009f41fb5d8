import type { AuditEventPage, AuditEventQuery } from './audit-event-types';
import type { ClusterEvent, ClusterEventQuery } from './cluster-event-types';
import type { GroupLagHistory, HistoryAnswer, TopicThroughputHistory } from './history-types';
import type { LogCleanerPartitionState } from './log-cleaner-types';
import type { PartitionMove, PartitionMoveResult, PartitionReassignment } from './reassignment-types';
import type { LedPartitionReplication } from './replication-types';
/*
 * What the broker's internal listener (default 127.0.0.1:9093) answers beyond Kafka's own admin
 * APIs: the facts an operator console needs that Kafka does not expose, each in one call. The
 * admin gateway reads them through `InternalAdmin`; the wire schemas live in
 * `messages/apis/internal/` under API keys reserved for Weir (32000 and up).
 */

/** One readiness check, as `/ready` reports it. */
export interface BrokerHealthCheck {
  readonly name: string;
  readonly ok: boolean;
  /** Why the check passes or fails, in words an operator can act on. */
  readonly detail: string;
}

/** One listener of the broker. */
export interface BrokerListener {
  /** "client" or "internal". */
  readonly name: string;
  readonly host: string;
  readonly port: number;
}

/** Rates over the broker's recent past (a sliding window of `windowMs`). */
export interface BrokerThroughput {
  readonly windowMs: number;
  readonly bytesInPerSecond: number;
  readonly recordsInPerSecond: number;
  readonly bytesOutPerSecond: number;
  readonly recordsOutPerSecond: number;
  readonly requestsPerSecond: number;
}

/** The broker as a whole: identity, health, counts and recent throughput. */
export interface BrokerOverview {
  readonly nodeId: number;
  readonly clusterId: string;
  /** The Weir version string. */
  readonly version: string;
  readonly startedAtMs: number;
  readonly listeners: readonly BrokerListener[];
  readonly checks: readonly BrokerHealthCheck[];
  /** Topics other than internal ones, as the topic list counts them by default. */
  readonly topicCount: number;
  readonly internalTopicCount: number;
  /** The partitions of the topics `topicCount` counts: internal topics' are left out too. */
  readonly partitionCount: number;
  readonly groupCount: number;
  readonly connectionCount: number;
  /** Bytes of every partition log on disk. */
  readonly logSizeBytes: bigint;
  readonly throughput: BrokerThroughput;
}

export type TopicSortKey = 'name' | 'partitions' | 'sizeBytes' | 'messages';

/** One page of the topic list; search, sort and paging happen on the broker. */
export interface TopicListQuery {
  /** Case-insensitive substring of the topic name; empty or absent matches every topic. */
  readonly search?: string;
  /** Include `__consumer_offsets` and other internal topics. Default false. */
  readonly includeInternal?: boolean;
  /** Default 'name'. Ties are broken by name. */
  readonly sortBy?: TopicSortKey;
  readonly descending?: boolean;
  /** Rows to skip. Default 0. */
  readonly offset?: number;
  /** Rows to return, 1 to 1,000. */
  readonly limit: number;
}

/** A consumer group that has committed offsets on a topic, with its lag there. */
export interface TopicGroupLag {
  readonly groupId: string;
  readonly lag: bigint;
}

/** One row of the topic list. */
export interface TopicSummary {
  readonly name: string;
  readonly internal: boolean;
  readonly partitionCount: number;
  readonly replicationFactor: number;
  readonly sizeBytes: bigint;
  /** Sum over partitions of high watermark minus log start (an upper bound once compaction exists). */
  readonly messageCount: bigint;
  /** Groups with committed offsets on the topic, by group id. */
  readonly groups: readonly TopicGroupLag[];
}

export interface TopicListPage {
  /** Topics matching the search, before paging. */
  readonly totalCount: number;
  readonly topics: readonly TopicSummary[];
}

/** One segment file of a partition log. */
export interface SegmentInternals {
  readonly baseOffset: bigint;
  readonly sizeBytes: bigint;
  /** The newest record timestamp in the segment, -1 when empty. */
  readonly maxTimestampMs: bigint;
}

/** A partition as the broker holds it, beyond what Metadata and ListOffsets say. */
export interface PartitionInternals {
  readonly partition: number;
  readonly leaderId: number;
  readonly replicas: readonly number[];
  readonly isr: readonly number[];
  readonly logStartOffset: bigint;
  readonly logEndOffset: bigint;
  readonly highWatermark: bigint;
  readonly lastStableOffset: bigint;
  readonly sizeBytes: bigint;
  readonly segments: readonly SegmentInternals[];
  /** Producers with state on the partition (idempotent or transactional). */
  readonly producerCount: number;
}

/** One partition's lag inside {@link GroupLagSummary}. */
export interface GroupPartitionLagRow {
  readonly topic: string;
  readonly partition: number;
  /** -1n when the group has committed nothing there. */
  readonly committedOffset: bigint;
  readonly logEndOffset: bigint;
  readonly lag: bigint;
  /** The member assigned the partition, when the group is stable and uses the consumer protocol. */
  readonly memberId: string | null;
}

/** A group with its lag, computed on the broker in one pass. */
export interface GroupLagSummary {
  readonly groupId: string;
  /** Empty, PreparingRebalance, CompletingRebalance, Stable or Dead. */
  readonly state: string;
  readonly protocolType: string;
  readonly protocol: string;
  readonly memberCount: number;
  readonly totalLag: bigint;
  readonly partitions: readonly GroupPartitionLagRow[];
}

/** Which part of a record a filter looks at. */
export type RecordFilterField = 'key' | 'value' | 'headerKey' | 'headerValue' | 'keyJson' | 'valueJson';
export type RecordFilterOperator = 'contains' | 'notContains' | 'equals';

/**
 * One condition on a record, compared as UTF-8 bytes, case-sensitively. Header conditions hold
 * when any header matches (`notContains`: when none does). Filters of one scan are ANDed.
 *
 * `keyJson` and `valueJson` look at the JSON value at `path` in the key or value (`user.id`,
 * `items[0].sku`, `["a.b"]`): `equals` holds when that value equals the operand read as JSON, or
 * is a string equal to the operand's text; `contains` looks for the text in the value (compact
 * JSON for non-strings). A key or value that is not JSON, or has nothing at the path, equals and
 * contains nothing.
 */
export interface RecordFilter {
  readonly field: RecordFilterField;
  readonly operator: RecordFilterOperator;
  readonly value: string;
  /** The JSON path, for `keyJson` and `valueJson` only. */
  readonly path?: string;
}

/**
 * Where one partition's scan starts and stops. A start below the log start begins at the log start
 * (retention removed those records); an end beyond the high watermark is cut to it.
 */
export interface PartitionScanRange {
  readonly partition: number;
  readonly startOffset: bigint;
  /** Exclusive. -1n: the high watermark at the time of the call. */
  readonly endOffset: bigint;
}

/**
 * One bounded step of a broker-side scan. The broker stops at whichever limit comes first, so one
 * call never runs long; the caller continues from the returned `nextOffset`s, and stopping the scan
 * is simply not calling again. Partitions take turns a read (about 1 MiB) at a time. A call also
 * stops once its matches hold about 16 MiB, whatever the limits say.
 *
 * Bounds (INVALID_REQUEST outside them): maxScanRecords 1–1,000,000, maxScanMs 1–5,000,
 * maxMatchesPerPartition 1–10,000, maxValueBytes 0–1 MiB, 1–10,000 partitions each listed once,
 * startOffset ≥ 0, endOffset -1 or ≥ startOffset, at most 16 filters of known fields and operators.
 * An unknown topic, or a partition the topic does not have, fails the whole call with
 * UNKNOWN_TOPIC_OR_PARTITION.
 */
export interface ScanRecordsRequest {
  readonly topic: string;
  readonly partitions: readonly PartitionScanRange[];
  readonly filters: readonly RecordFilter[];
  /** Matches to return per partition. */
  readonly maxMatchesPerPartition: number;
  /** Records to examine in this call, over all partitions. */
  readonly maxScanRecords: number;
  /** Wall time for this call. */
  readonly maxScanMs: number;
  /** Keys, values and header values longer than this come back cut to it (their size is kept). */
  readonly maxValueBytes: number;
  /**
   * read_uncommitted (the default) returns every record with its transaction status;
   * read_committed ends each range at the last stable offset and skips aborted transactions'
   * records, as a read_committed consumer sees the topic. A broker older than WeirScanRecords v2
   * ignores it.
   */
  readonly isolation?: 'read_uncommitted' | 'read_committed';
}

/**
 * Where a scanned record stands in its transaction: `none` outside any, `committed`, `aborted`,
 * `open` while its transaction is undecided (at or past the last stable offset), and `unknown`
 * from a broker older than WeirScanRecords v2, which does not say.
 */
export type ScannedTransactionStatus = 'none' | 'committed' | 'aborted' | 'open' | 'unknown';

export interface ScannedHeader {
  readonly key: string;
  readonly value: Uint8Array | null;
}

export interface ScannedRecord {
  readonly partition: number;
  readonly offset: bigint;
  readonly timestampMs: bigint;
  /** The batch's timestamp type: false CreateTime, true LogAppendTime. */
  readonly logAppendTime: boolean;
  readonly key: Uint8Array | null;
  /** The key's size before any cut; -1 for a null key. */
  readonly keyBytes: number;
  readonly value: Uint8Array | null;
  /** The value's size before any cut; -1 for a null value. */
  readonly valueBytes: number;
  /** In order, duplicates kept. */
  readonly headers: readonly ScannedHeader[];
  readonly transactional: boolean;
  /** A transaction marker; control records are never matched by filters. */
  readonly control: boolean;
  readonly producerId: bigint;
  /** The batch's producer epoch; -1 for a batch without one, or from a broker older than v2. */
  readonly producerEpoch: number;
  readonly transaction: ScannedTransactionStatus;
  readonly compression: 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';
}

export interface PartitionScanProgress {
  readonly partition: number;
  /**
   * Where the next call continues: the offset after the last record examined, or, when the
   * partition reached `maxMatchesPerPartition`, the offset after its last match.
   */
  readonly nextOffset: bigint;
  /** The resolved end of the range. */
  readonly endOffset: bigint;
  /** Whether `nextOffset` reached `endOffset` (or the partition's log end). */
  readonly done: boolean;
}

export interface ScanRecordsResult {
  /** Matches in offset order per partition, partitions in request order. */
  readonly records: readonly ScannedRecord[];
  readonly partitions: readonly PartitionScanProgress[];
  readonly scannedRecords: number;
  readonly scannedBytes: number;
}

/**
 * The calls of the internal listener beyond Kafka's APIs. Errors are `WeirError`s carrying the
 * Kafka code (UNKNOWN_TOPIC_OR_PARTITION for a missing topic, INVALID_REQUEST for bad bounds).
 * When rows of an answer fail on their own (a named group that does not exist: GROUP_ID_NOT_FOUND;
 * an offline partition: KAFKA_STORAGE_ERROR) the error is an `AdminItemsError` naming each of them.
 */
export interface InternalAdminApi {
  describeBroker(): Promise<BrokerOverview>;
  listTopicSummaries(query: TopicListQuery): Promise<TopicListPage>;
  /** Every partition of one topic, by partition number. */
  describePartitions(topic: string): Promise<PartitionInternals[]>;
  /** The named groups, or every group when `groupIds` is null; sorted by group id. */
  describeGroupLags(groupIds: readonly string[] | null): Promise<GroupLagSummary[]>;
  scanRecords(request: ScanRecordsRequest): Promise<ScanRecordsResult>;
  /**
   * Aborts the open transaction of a transactional id (a hanging one): the producer's epoch is
   * bumped, fencing it, and ABORT markers are written before the call returns. `reason` is
   * required and logged by the broker with the caller's principal. Fails with
   * TRANSACTIONAL_ID_NOT_FOUND, or INVALID_TXN_STATE when no transaction is open.
   */
  abortTransaction(transactionalId: string, reason: string): Promise<void>;
  /** The replication timeline, newest first (WeirListClusterEvents). */
  listClusterEvents(query: ClusterEventQuery): Promise<ClusterEvent[]>;
  /**
   * The administrative actions the broker this admin talks to recorded, newest first, one page
   * (WeirListAuditEvents); on a cluster each broker keeps its own, so a caller merges their pages.
   */
  listAuditEvents(query: AuditEventQuery): Promise<AuditEventPage>;
  /**
   * The named groups' lag over time since `sinceMs` (WeirDescribeLagHistory), each partition's
   * too with `includePartitions`; a group denied DESCRIBE fails the call with an AdminItemsError.
   */
  describeLagHistory(
    groupIds: readonly string[],
    options: { sinceMs: number; includePartitions?: boolean },
  ): Promise<HistoryAnswer<GroupLagHistory>>;
  /** The named topics' client traffic over time since `sinceMs` (WeirDescribeThroughputHistory). */
  describeThroughputHistory(
    topics: readonly string[],
    options: { sinceMs: number },
  ): Promise<HistoryAnswer<TopicThroughputHistory>>;
  /**
   * The partitions the broker this admin talks to leads, with its followers' lag
   * (WeirDescribeReplication); only these topics when given.
   */
  describeReplication(topics?: readonly string[]): Promise<LedPartitionReplication[]>;
  /**
   * The log cleaner's state of the compacted partitions the broker this admin talks to holds
   * (WeirDescribeLogCleaner); only these topics when given.
   */
  describeLogCleaner(topics?: readonly string[]): Promise<LogCleanerPartitionState[]>;
  /** Starts, replaces (replicas) or cancels (null) partition moves; each partition answers on its own. */
  alterPartitionReassignments(
    moves: readonly PartitionMove[],
    options?: { timeoutMs?: number },
  ): Promise<PartitionMoveResult[]>;
  /** The moves in progress, of every partition or of the named ones. */
  listPartitionReassignments(
    partitions?: readonly { topic: string; partition: number }[],
  ): Promise<PartitionReassignment[]>;
}
