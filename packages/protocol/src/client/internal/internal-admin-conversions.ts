import { ErrorCode } from '../../errors/error-codes';
import { WeirError } from '../../errors/weir-error';
import type { WeirDescribeBroker } from '../../messages/apis/internal/weir-describe-broker';
import type { WeirDescribeGroupLags } from '../../messages/apis/internal/weir-describe-group-lags';
import type { WeirDescribePartitions } from '../../messages/apis/internal/weir-describe-partitions';
import type { WeirListTopicSummaries } from '../../messages/apis/internal/weir-list-topic-summaries';
import {
  SCAN_TRANSACTION_STATUS,
  type WeirScanRecords,
} from '../../messages/apis/internal/weir-scan-records';
import { COMPRESSION_TYPES } from '../../records/batch-attributes';
import type { RequestOf, ResponseOf } from '../../schema/api';
import type {
  BrokerOverview,
  GroupLagSummary,
  PartitionInternals,
  ScannedRecord,
  ScannedTransactionStatus,
  ScanRecordsRequest,
  ScanRecordsResult,
  TopicListPage,
  TopicListQuery,
} from './internal-admin-types';

/**
 * Wire ↔ contract for the internal listener's Weir-only APIs: the responses' shapes follow Kafka's
 * conventions (partitionIndex, errorCode on rows), the contract's follow what a console shows.
 * Rows with errors are filtered out by the caller before conversion.
 */

export function overviewFrom(response: ResponseOf<typeof WeirDescribeBroker>): BrokerOverview {
  return {
    nodeId: response.nodeId,
    clusterId: response.clusterId,
    version: response.version,
    startedAtMs: Number(response.startedAtMs),
    listeners: response.listeners,
    checks: response.checks,
    topicCount: response.topicCount,
    internalTopicCount: response.internalTopicCount,
    partitionCount: response.partitionCount,
    groupCount: response.groupCount,
    connectionCount: response.connectionCount,
    logSizeBytes: response.logSizeBytes,
    throughput: response.throughput,
  };
}

export function topicQueryBody(query: TopicListQuery): RequestOf<typeof WeirListTopicSummaries> {
  return {
    search: query.search ?? '',
    includeInternal: query.includeInternal ?? false,
    sortBy: query.sortBy ?? 'name',
    descending: query.descending ?? false,
    offset: query.offset ?? 0,
    limit: query.limit,
  };
}

export function topicPageFrom(response: ResponseOf<typeof WeirListTopicSummaries>): TopicListPage {
  return { totalCount: response.totalCount, topics: response.topics };
}

type PartitionRow = ResponseOf<typeof WeirDescribePartitions>['partitions'][number];

export function partitionFrom(row: PartitionRow): PartitionInternals {
  return {
    partition: row.partitionIndex,
    leaderId: row.leaderId,
    replicas: row.replicaNodes,
    isr: row.isrNodes,
    logStartOffset: row.logStartOffset,
    logEndOffset: row.logEndOffset,
    highWatermark: row.highWatermark,
    lastStableOffset: row.lastStableOffset,
    sizeBytes: row.sizeBytes,
    segments: row.segments,
    producerCount: row.producerCount,
  };
}

type GroupRow = ResponseOf<typeof WeirDescribeGroupLags>['groups'][number];

export function groupLagFrom(row: GroupRow): GroupLagSummary {
  return {
    groupId: row.groupId,
    state: row.state,
    protocolType: row.protocolType,
    protocol: row.protocol,
    memberCount: row.memberCount,
    totalLag: row.totalLag,
    partitions: row.partitions.map((partition) => ({
      topic: partition.topic,
      partition: partition.partitionIndex,
      committedOffset: partition.committedOffset,
      logEndOffset: partition.logEndOffset,
      lag: partition.lag,
      memberId: partition.memberId,
    })),
  };
}

export function scanBody(request: ScanRecordsRequest): RequestOf<typeof WeirScanRecords> {
  return {
    topic: request.topic,
    partitions: request.partitions.map((range) => ({
      partitionIndex: range.partition,
      startOffset: range.startOffset,
      endOffset: range.endOffset,
    })),
    filters: request.filters.map((filter) => ({
      field: filter.field,
      operator: filter.operator,
      value: Buffer.from(filter.value, 'utf8'),
      path: filter.path ?? null,
    })),
    maxMatchesPerPartition: request.maxMatchesPerPartition,
    maxScanRecords: request.maxScanRecords,
    maxScanMs: request.maxScanMs,
    maxValueBytes: request.maxValueBytes,
    isolationLevel: request.isolation === 'read_committed' ? 1 : 0,
  };
}

type ScanResponse = ResponseOf<typeof WeirScanRecords>;

export function scanResultFrom(response: ScanResponse): ScanRecordsResult {
  return {
    records: response.records.map(scannedRecordFrom),
    partitions: response.partitions.map((progress) => ({
      partition: progress.partitionIndex,
      nextOffset: progress.nextOffset,
      endOffset: progress.endOffset,
      done: progress.done,
    })),
    scannedRecords: response.scannedRecords,
    scannedBytes: Number(response.scannedBytes),
  };
}

function scannedRecordFrom(record: ScanResponse['records'][number]): ScannedRecord {
  const compression = COMPRESSION_TYPES[record.compression];
  if (compression === undefined) {
    throw new WeirError(ErrorCode.CORRUPT_MESSAGE, {
      detail: `the broker reported compression codec ${record.compression}, which Kafka does not define.`,
    });
  }
  return {
    partition: record.partitionIndex,
    offset: record.offset,
    timestampMs: record.timestampMs,
    logAppendTime: record.logAppendTime,
    key: record.key,
    keyBytes: record.keyBytes,
    value: record.value,
    valueBytes: record.valueBytes,
    headers: record.headers,
    transactional: record.transactional,
    control: record.control,
    producerId: record.producerId,
    producerEpoch: record.producerEpoch,
    transaction: TRANSACTION_STATUSES[record.transactionStatus] ?? 'unknown',
    compression,
  };
}

/** WeirScanRecords v2's status codes (SCAN_TRANSACTION_STATUS) by value; -1 before v2. */
const TRANSACTION_STATUSES: Readonly<Record<number, ScannedTransactionStatus>> = {
  [SCAN_TRANSACTION_STATUS.none]: 'none',
  [SCAN_TRANSACTION_STATUS.committed]: 'committed',
  [SCAN_TRANSACTION_STATUS.aborted]: 'aborted',
  [SCAN_TRANSACTION_STATUS.open]: 'open',
};
