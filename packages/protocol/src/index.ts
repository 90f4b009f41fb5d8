// The public entry point of @weir/protocol. Every name is listed explicitly: no `export *`.

export type { DecodeErrorKind, DecodeResult } from './codec/decode-error';
export { DecodeError, tryDecode } from './codec/decode-error';
export type { DeferredBytes, FramePart } from './codec/deferred-bytes';
export { isDeferredBytes } from './codec/deferred-bytes';
export { Reader } from './codec/reader';
export { Writer } from './codec/writer';
export type { ErrorCodeInfo, ErrorCodeName } from './errors/error-codes';
export { ErrorCode, errorCodeInfo, errorCodeTable, isKnownErrorCode } from './errors/error-codes';
export type { WeirErrorOptions } from './errors/weir-error';
export { errorForCode, isRetriable, WeirError } from './errors/weir-error';
export type { FrameDecoderOptions, FramePushResult } from './framing/frame-decoder';
export { DEFAULT_MAX_FRAME_BYTES, FrameDecoder } from './framing/frame-decoder';
export { encodeFrame, frameParts, frameSizePrefix } from './framing/frame-encoder';
export { AddOffsetsToTxn } from './messages/apis/add-offsets-to-txn';
export { AddPartitionsToTxn } from './messages/apis/add-partitions-to-txn';
export { AlterClientQuotas } from './messages/apis/alter-client-quotas';
export { AlterConfigs } from './messages/apis/alter-configs';
export { AlterPartitionReassignments } from './messages/apis/alter-partition-reassignments';
export { ApiVersions } from './messages/apis/api-versions';
export { ConsumerGroupDescribe } from './messages/apis/consumer-group-describe';
export { ConsumerGroupHeartbeat } from './messages/apis/consumer-group-heartbeat';
export { CreateAcls } from './messages/apis/create-acls';
export { CreatePartitions } from './messages/apis/create-partitions';
export { CreateTopics } from './messages/apis/create-topics';
export { DeleteAcls } from './messages/apis/delete-acls';
export { DeleteGroups } from './messages/apis/delete-groups';
export { DeleteRecords } from './messages/apis/delete-records';
export { DeleteTopics } from './messages/apis/delete-topics';
export { DescribeAcls } from './messages/apis/describe-acls';
export { DescribeClientQuotas } from './messages/apis/describe-client-quotas';
export { DescribeConfigs } from './messages/apis/describe-configs';
export { DescribeGroups } from './messages/apis/describe-groups';
export { DescribeLogDirs } from './messages/apis/describe-log-dirs';
export { DescribeProducers } from './messages/apis/describe-producers';
export { DescribeTransactions } from './messages/apis/describe-transactions';
export { ElectLeaders } from './messages/apis/elect-leaders';
export { EndTxn } from './messages/apis/end-txn';
export { Fetch } from './messages/apis/fetch';
export { FindCoordinator } from './messages/apis/find-coordinator';
export { Heartbeat } from './messages/apis/heartbeat';
export { IncrementalAlterConfigs } from './messages/apis/incremental-alter-configs';
export { InitProducerId } from './messages/apis/init-producer-id';
export { WeirAbortTransaction } from './messages/apis/internal/weir-abort-transaction';
export { WeirApplyTxnOffsets } from './messages/apis/internal/weir-apply-txn-offsets';
export { WeirDeleteUser } from './messages/apis/internal/weir-delete-user';
export { WeirDescribeBroker } from './messages/apis/internal/weir-describe-broker';
export { WeirDescribeEffectivePermissions } from './messages/apis/internal/weir-describe-effective-permissions';
export { WeirDescribeGroupLags } from './messages/apis/internal/weir-describe-group-lags';
export { WeirDescribeLagHistory } from './messages/apis/internal/weir-describe-lag-history';
export { WeirDescribeLogCleaner } from './messages/apis/internal/weir-describe-log-cleaner';
export { WeirDescribePartitions } from './messages/apis/internal/weir-describe-partitions';
export { WeirDescribeReplication } from './messages/apis/internal/weir-describe-replication';
export { WeirDescribeThroughputHistory } from './messages/apis/internal/weir-describe-throughput-history';
export { WeirListAuditEvents } from './messages/apis/internal/weir-list-audit-events';
export { WeirListClusterEvents } from './messages/apis/internal/weir-list-cluster-events';
export { WeirListTopicSummaries } from './messages/apis/internal/weir-list-topic-summaries';
export { WeirListUsers } from './messages/apis/internal/weir-list-users';
export { SCAN_TRANSACTION_STATUS, WeirScanRecords } from './messages/apis/internal/weir-scan-records';
export { WeirUpsertUser } from './messages/apis/internal/weir-upsert-user';
export { WeirVerifyCredentials } from './messages/apis/internal/weir-verify-credentials';
export { WeirVerifyTransactionMembership } from './messages/apis/internal/weir-verify-transaction-membership';
export { JoinGroup } from './messages/apis/join-group';
export { LeaveGroup } from './messages/apis/leave-group';
export { ListGroups } from './messages/apis/list-groups';
export { ListOffsets } from './messages/apis/list-offsets';
export { ListPartitionReassignments } from './messages/apis/list-partition-reassignments';
export { ListTransactions } from './messages/apis/list-transactions';
export { Metadata } from './messages/apis/metadata';
export { OffsetCommit } from './messages/apis/offset-commit';
export { OffsetDelete } from './messages/apis/offset-delete';
export { OffsetFetch } from './messages/apis/offset-fetch';
export { OffsetForLeaderEpoch } from './messages/apis/offset-for-leader-epoch';
export { Produce } from './messages/apis/produce';
export { SaslAuthenticate } from './messages/apis/sasl-authenticate';
export { SaslHandshake } from './messages/apis/sasl-handshake';
export { SyncGroup } from './messages/apis/sync-group';
export { TxnOffsetCommit } from './messages/apis/txn-offset-commit';
export { WriteTxnMarkers } from './messages/apis/write-txn-markers';
export type { RequestHeader } from './messages/header';
export { INTERNAL_APIS, WEIR_API_KEY_MIN } from './messages/internal-apis';
export type { ApiLookup, DecodedRequest, DecodedResponse } from './messages/message-codec';
export {
  decodeRequestBody,
  decodeRequestFrame,
  decodeResponseFrame,
  encodeRequestFrame,
  encodeRequestFrameParts,
  encodeResponseFrame,
  encodeResponseFrameParts,
  peekCorrelationId,
} from './messages/message-codec';
export { ALL_APIS, apiByKey } from './messages/registry';
export type { BatchAttributeFlags, CompressionType, TimestampType } from './records/batch-attributes';
export {
  batchCompression,
  batchCompressionId,
  batchTimestampType,
  COMPRESSION_TYPES,
  compressionTypeId,
  decodeBatchAttributes,
  encodeBatchAttributes,
  hasDeleteHorizon,
  isControlBatch,
  isTransactionalBatch,
  TIMESTAMP_TYPES,
} from './records/batch-attributes';
export type { RecordBatchHeader } from './records/batch-header';
export {
  BATCH_HEADER_BYTES,
  BATCH_LOG_OVERHEAD_BYTES,
  BatchLayout,
  batchLastOffset,
  batchSizeBytes,
  checkBatch,
  RECORD_BATCH_MAGIC,
  readBatchHeader,
  setBatchBaseOffset,
  setBatchLogAppendTime,
  setBatchMaxTimestamp,
  setBatchPartitionLeaderEpoch,
  verifyBatchCrc,
} from './records/batch-header';
export type { BatchScanItem, SplitBatches } from './records/batch-scanner';
export { iterateBatches, splitBatches } from './records/batch-scanner';
export type { CompressionCodec } from './records/compression/compression-codec';
export { DEFAULT_MAX_DECOMPRESSED_BYTES } from './records/compression/compression-codec';
export { compressBytes, compressionCodec, decompressBytes } from './records/compression/registry';
export type {
  ControlRecord,
  TransactionMarkerBatchInput,
  TransactionMarkerType,
} from './records/control-record';
export {
  decodeControlRecord,
  encodeControlRecordKey,
  encodeTransactionMarkerBatch,
  encodeTransactionMarkerValue,
} from './records/control-record';
export { crc32c } from './records/crc32c';
export { batchesToLegacyMessageSet } from './records/legacy/batch-to-legacy';
export type { LegacyMagic, LegacyMessage, LegacyMessageInput } from './records/legacy/legacy-message';
export {
  decodeLegacyMessageSet,
  encodeLegacyMessageSet,
  legacyMagicOf,
} from './records/legacy/legacy-message';
export { legacyMessageSetToBatch } from './records/legacy/legacy-to-batch';
export type { RecordFields, RecordFieldsInput, RecordHeader, RecordHeaderInput } from './records/record';
export { decodeRecord, encodeRecord } from './records/record';
export type {
  DecodedRecord,
  DecodeRecordBatchOptions,
  RecordBatch,
  RecordBatchInput,
  RecordInput,
} from './records/record-batch';
export { decodeRecordBatch, encodeRecordBatch, writeRecordBatchHeader } from './records/record-batch';
export { RecordReader } from './records/record-reader';
export type { ApiDefinition, ApiSchema, RequestOf, ResponseInputOf, ResponseOf } from './schema/api';
export { defineApi, isFlexible, supportsVersion } from './schema/api';
export { ZERO_UUID } from './schema/types';

// The client SDK: transport, connection, client, producer, consumer, admin. This comment stands
// apart so the import sorter keeps the block below as its own group at the end of the file.

export { describeBinding } from './client/acl/acl-admin';
export type {
  AclBinding,
  AclBindingFilter,
  AclOperation,
  AclPatternType,
  AclPermission,
  AclResourceType,
} from './client/acl/acl-types';
export {
  ACL_OPERATION_IDS,
  ACL_OPERATIONS,
  ACL_PATTERN_TYPE_IDS,
  ACL_PATTERN_TYPES,
  ACL_PERMISSION_IDS,
  ACL_PERMISSIONS,
  ACL_RESOURCE_TYPE_IDS,
  ACL_RESOURCE_TYPES,
  ACL_WILDCARD,
  ACL_WILDCARD_PRINCIPAL,
  aclNameOf,
  CLUSTER_RESOURCE_NAME,
  MATCH_ALL_ACLS,
  sameAclBinding,
} from './client/acl/acl-types';
export type { AclBindingWire, AclFilterWire } from './client/acl/acl-wire';
export { aclBindingFromWire, aclBindingToWire } from './client/acl/acl-wire';
export { Admin } from './client/admin';
export type { AdminItemFailure } from './client/admin-error';
export { AdminItemsError } from './client/admin-error';
export type {
  AdminTimeoutOptions,
  AlterConfigsRequest,
  ConfigEntry,
  ConfigOperation,
  ConfigResource,
  ConfigResourceDescription,
  ConfigResourceType,
  ConfigSource,
  ConfigValueType,
  DeletedRecords,
  DeleteRecordsRequest,
  DescribeConfigsRequest,
  IncrementalAlterConfigsRequest,
  NewTopic,
  PartitionCountChange,
  PartitionOffsetRange,
  TopicDescription,
  ValidateOnlyOptions,
} from './client/admin-types';
export { CONFIG_SOURCES, CONFIG_VALUE_TYPES } from './client/admin-types';
export type { ApiVersionRange, BrokerApiVersions } from './client/api-versions';
export type { SaslClientExchange } from './client/auth/sasl-client-exchange';
export { saslClientExchange } from './client/auth/sasl-client-exchange';
export type { SaslOptions } from './client/auth/sasl-options';
export type { ScramKeys } from './client/auth/scram';
export {
  constantTimeEqual,
  escapeSaslName,
  parseScramAttributes,
  SCRAM_MIN_ITERATIONS,
  scramHash,
  scramHmac,
  scramKeys,
  scramNonce,
  scramSaltedPassword,
  unescapeSaslName,
  xorBuffers,
} from './client/auth/scram';
export type { ScramMechanism } from './client/auth/scram-mechanisms';
export { isScramMechanism, SCRAM_MECHANISMS } from './client/auth/scram-mechanisms';
export type { BrokerAddress } from './client/broker-address';
export { formatBrokerAddress, parseBrokerAddress } from './client/broker-address';
export type { ClientOptions, ClientRequestOptions, ConnectionLane, RequestTarget } from './client/client';
export { Client } from './client/client';
export { ClosedError } from './client/closed-error';
export type {
  BrokerMetadata,
  ClusterMetadata,
  MetadataSnapshot,
  PartitionMetadata,
  TopicMetadata,
} from './client/cluster-metadata';
export type { ConnectionOptions, RequestOptions } from './client/connection';
export { Connection } from './client/connection';
export type {
  ConnectionCloseReason,
  ConnectionStatus,
  ConnectionStatusListener,
} from './client/connection-status';
export type {
  ConsumerOptions,
  PartitionAssignment,
  PollOptions,
  StartOffset,
} from './client/consumer';
export { Consumer } from './client/consumer';
export type {
  ElectionTypeName,
  ElectLeadersRequest,
  PartitionElectionResult,
} from './client/election-admin';
export type { AskLeadersOptions, LeaderReports, ReportingBroker } from './client/health/leader-reports';
export { askEveryLeader } from './client/health/leader-reports';
export { DEFAULT_MIN_INSYNC_REPLICAS, readMinInsyncReplicas } from './client/health/min-insync-replicas';
export type {
  LaggingFollower,
  LeaderReplicationReport,
  PartitionAssignmentView,
  PartitionHealth,
} from './client/health/partition-health';
export { judgePartition } from './client/health/partition-health';
export type { PartitionHealthState } from './client/health/partition-health-states';
export { PARTITION_HEALTH_STATES } from './client/health/partition-health-states';
export {
  AUDIT_ACTIONS,
  type AuditEventPage,
  type AuditEventQuery,
  type AuditEventRow,
  mergeAuditPages,
} from './client/internal/audit-event-types';
export type {
  ClusterEvent,
  ClusterEventKind,
  ClusterEventQuery,
} from './client/internal/cluster-event-types';
export {
  type EffectivePermissions,
  type EffectivePermissionsApi,
  OPERATIONS_BY_RESOURCE_TYPE,
  type OperationVerdict,
  PERMISSION_REASONS,
  type PermissionReason,
  type ResourcePermissions,
} from './client/internal/effective-permission-types';
export type {
  GroupLagHistory,
  HistoryAnswer,
  HistoryValues,
  TopicThroughputHistory,
} from './client/internal/history-types';
export { InternalAdmin } from './client/internal/internal-admin';
export type {
  BrokerHealthCheck,
  BrokerListener,
  BrokerOverview,
  BrokerThroughput,
  GroupLagSummary,
  GroupPartitionLagRow,
  InternalAdminApi,
  PartitionInternals,
  PartitionScanProgress,
  PartitionScanRange,
  RecordFilter,
  RecordFilterField,
  RecordFilterOperator,
  ScannedHeader,
  ScannedRecord,
  ScannedTransactionStatus,
  ScanRecordsRequest,
  ScanRecordsResult,
  SegmentInternals,
  TopicGroupLag,
  TopicListPage,
  TopicListQuery,
  TopicSortKey,
  TopicSummary,
} from './client/internal/internal-admin-types';
export type { LagTrend, TimeToZeroEstimate } from './client/internal/lag-estimate';
export { ESTIMATE_BUCKETS, estimateTimeToZero } from './client/internal/lag-estimate';
export type {
  LogCleanerNextClean,
  LogCleanerOutcome,
  LogCleanerPartitionState,
} from './client/internal/log-cleaner-types';
export type {
  PartitionMove,
  PartitionMoveResult,
  PartitionReassignment,
} from './client/internal/reassignment-types';
export type {
  FollowerReplication,
  LedPartitionReplication,
} from './client/internal/replication-types';
export type {
  CredentialCheck,
  UpsertUserRequest,
  UserAdminApi,
  UserDescription,
  UserScramMechanism,
} from './client/internal/user-admin-types';
export type { OffsetQuery, OffsetSpec, PartitionOffset } from './client/list-offsets';
export type { LogDirDescription, LogDirReplica, LogDirTopicFilter } from './client/log-dirs-admin';
export type {
  ConsumerRecord,
  MessageBytes,
  MessageHeader,
  ProducerMessage,
  ProducerRecord,
  RecordMetadata,
} from './client/message';
export { murmur2, partitionForKey, StickyPartitioner } from './client/partitioner';
export { Producer } from './client/producer';
export type {
  InterceptedProduceResponse,
  ProducerOptions,
  ProducerTestHooks,
} from './client/producer-options';
export type {
  ClientQuotaAlteration,
  ClientQuotaEntity,
  ClientQuotaEntry,
  ClientQuotaFilterComponent,
} from './client/quota-admin';
export { describeQuotaEntity } from './client/quota-admin';
export {
  type DrainCandidate,
  type DrainMove,
  drainPlan,
  type PlacedPartition,
} from './client/reassignment/drain-plan';
export {
  type AddingReplicaProgress,
  type CurrentPlacement,
  moveProgress,
  type PlannedMove,
  parseReassignmentJson,
  planMoves,
  type RefusedMove,
  reassignmentJson,
} from './client/reassignment/move-plan';
export type { RetryHooks, RetryOptions } from './client/retry';
export { RetryPolicy } from './client/retry';
export type {
  PartitionProducer,
  TransactionDescription,
  TransactionListFilters,
  TransactionListing,
} from './client/transaction/transaction-admin';
export type { TransactionState } from './client/transaction/transaction-state';
export { canTransitionTransaction, TRANSACTION_TRANSITIONS } from './client/transaction/transaction-state';
export type { TransactionalIdState } from './client/transaction/transactional-id-state';
export { TRANSACTIONAL_ID_STATES } from './client/transaction/transactional-id-state';
export type { TransactionalProducerOptions } from './client/transaction/transactional-producer';
export { TransactionalProducer } from './client/transaction/transactional-producer';
export { nodeTransport } from './transport/node-transport';
export type {
  TlsOptions,
  Transport,
  TransportConnectOptions,
  TransportFactory,
  TransportHandlers,
} from './transport/transport';

// Consumer groups: the standard consumer protocol codec, assignors, the group consumer and the
// admin's group types.

export type { Assignor, AssignorMember } from './client/group/assignor';
export type { CoordinatorAddress } from './client/group/coordinator';
export type {
  GroupDescription,
  GroupListing,
  GroupMemberDescription,
  GroupPartitionLag,
  OffsetResetOptions,
  OffsetResetTarget,
  PlannedOffset,
} from './client/group/group-admin';
export { GroupConsumer } from './client/group/group-consumer';
export type {
  CoordinatorConnector,
  GenerationOffset,
  GroupConsumerOptions,
  RebalanceListeners,
  TopicPartition,
} from './client/group/group-consumer-options';
export type { GroupConsumerState } from './client/group/group-consumer-state';
export { canTransition, GROUP_CONSUMER_TRANSITIONS } from './client/group/group-consumer-state';
export type { CommittedOffset, OffsetToCommit } from './client/group/group-offsets';
export { rangeAssignor } from './client/group/range-assignor';
export { roundRobinAssignor } from './client/group/round-robin-assignor';
export { cooperativeStickyAssignor } from './client/group/sticky-assignor';
export {
  ConsumerGroupCurrentMemberAssignmentValue,
  ConsumerGroupMemberMetadataValue,
  ConsumerGroupMetadataValue,
  ConsumerGroupPartitionMetadataValue,
  ConsumerGroupTargetAssignmentMemberValue,
  ConsumerGroupTargetAssignmentMetadataValue,
  decodeConsumerGroupValue,
  encodeConsumerGroupValue,
} from './records/consumer-group-values';
export type {
  ConsumerAssignment,
  ConsumerSubscription,
  TopicPartitions,
} from './records/consumer-protocol';
export {
  decodeConsumerAssignment,
  decodeConsumerSubscription,
  encodeConsumerAssignment,
  encodeConsumerSubscription,
} from './records/consumer-protocol';
export type { TransactionLogValueFields } from './records/transaction-log-value';
export {
  decodeTransactionLogValue,
  encodeTransactionLogValue,
  TRANSACTION_LOG_VALUE_VERSION,
  TransactionLogValue,
  WEIR_STAGED_OFFSETS_TAG,
} from './records/transaction-log-value';
