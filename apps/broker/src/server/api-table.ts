import type { ApiHandler } from './handler';
import { addOffsetsToTxnHandler } from './handlers/add-offsets-to-txn';
import { addPartitionsToTxnHandler } from './handlers/add-partitions-to-txn';
import { alterClientQuotasHandler, clientAlterClientQuotasHandler } from './handlers/alter-client-quotas';
import { alterConfigsHandler } from './handlers/alter-configs';
import { alterPartitionReassignmentsHandler } from './handlers/alter-partition-reassignments';
import { consumerGroupDescribeHandler } from './handlers/consumer-group-describe';
import { consumerGroupHeartbeatHandler } from './handlers/consumer-group-heartbeat';
import { createAclsHandler } from './handlers/create-acls';
import { createPartitionsHandler } from './handlers/create-partitions';
import { createTopicsHandler } from './handlers/create-topics';
import { deleteAclsHandler } from './handlers/delete-acls';
import { deleteGroupsHandler } from './handlers/delete-groups';
import { deleteRecordsHandler } from './handlers/delete-records';
import { deleteTopicsHandler } from './handlers/delete-topics';
import { describeAclsHandler } from './handlers/describe-acls';
import {
  clientDescribeClientQuotasHandler,
  describeClientQuotasHandler,
} from './handlers/describe-client-quotas';
import { describeConfigsHandler } from './handlers/describe-configs';
import { describeGroupsHandler } from './handlers/describe-groups';
import { clientDescribeLogDirsHandler, describeLogDirsHandler } from './handlers/describe-log-dirs';
import { describeProducersHandler } from './handlers/describe-producers';
import { describeTransactionsHandler } from './handlers/describe-transactions';
import { clientElectLeadersHandler, electLeadersHandler } from './handlers/elect-leaders';
import { endTxnHandler } from './handlers/end-txn';
import { fetchHandler } from './handlers/fetch';
import { findCoordinatorHandler } from './handlers/find-coordinator';
import { heartbeatHandler } from './handlers/heartbeat';
import { incrementalAlterConfigsHandler } from './handlers/incremental-alter-configs';
import { initProducerIdHandler } from './handlers/init-producer-id';
import { weirAbortTransactionHandler } from './handlers/internal/weir-abort-transaction';
import { weirApplyTxnOffsetsHandler } from './handlers/internal/weir-apply-txn-offsets';
import { weirDeleteUserHandler } from './handlers/internal/weir-delete-user';
import { weirDescribeBrokerHandler } from './handlers/internal/weir-describe-broker';
import { weirDescribeEffectivePermissionsHandler } from './handlers/internal/weir-describe-effective-permissions';
import { weirDescribeGroupLagsHandler } from './handlers/internal/weir-describe-group-lags';
import { weirDescribeLagHistoryHandler } from './handlers/internal/weir-describe-lag-history';
import { weirDescribeLogCleanerHandler } from './handlers/internal/weir-describe-log-cleaner';
import { weirDescribePartitionsHandler } from './handlers/internal/weir-describe-partitions';
import { weirDescribeReplicationHandler } from './handlers/internal/weir-describe-replication';
import { weirDescribeThroughputHistoryHandler } from './handlers/internal/weir-describe-throughput-history';
import { weirListAuditEventsHandler } from './handlers/internal/weir-list-audit-events';
import { weirListClusterEventsHandler } from './handlers/internal/weir-list-cluster-events';
import { weirListTopicSummariesHandler } from './handlers/internal/weir-list-topic-summaries';
import { weirListUsersHandler } from './handlers/internal/weir-list-users';
import { weirScanRecordsHandler } from './handlers/internal/weir-scan-records';
import { weirUpsertUserHandler } from './handlers/internal/weir-upsert-user';
import { weirVerifyCredentialsHandler } from './handlers/internal/weir-verify-credentials';
import { weirVerifyTransactionMembershipHandler } from './handlers/internal/weir-verify-transaction-membership';
import { joinGroupHandler } from './handlers/join-group';
import { leaveGroupHandler } from './handlers/leave-group';
import { listGroupsHandler } from './handlers/list-groups';
import { listOffsetsHandler } from './handlers/list-offsets';
import { listPartitionReassignmentsHandler } from './handlers/list-partition-reassignments';
import { listTransactionsHandler } from './handlers/list-transactions';
import { metadataHandler } from './handlers/metadata';
import { offsetCommitHandler } from './handlers/offset-commit';
import { offsetDeleteHandler } from './handlers/offset-delete';
import { offsetFetchHandler } from './handlers/offset-fetch';
import { offsetForLeaderEpochHandler } from './handlers/offset-for-leader-epoch';
import { produceHandler } from './handlers/produce';
import { clientSaslAuthenticateHandler, saslAuthenticateHandler } from './handlers/sasl-authenticate';
import { saslHandshakeHandler } from './handlers/sasl-handshake';
import { syncGroupHandler } from './handlers/sync-group';
import { txnOffsetCommitHandler } from './handlers/txn-offset-commit';
import { writeTxnMarkersHandler } from './handlers/write-txn-markers';

/**
 * Where a handler is served:
 * - `client`: on the client listener, whatever its security protocol;
 * - `client with SASL`: on the client listener only when it authenticates with SASL (a listener
 *   without SASL must not advertise the SASL APIs: a client would take them as an invitation to
 *   authenticate);
 * - `internal`: on the internal listener, which always authenticates with SASL (WEIR-TOKEN).
 */
export type ServedOn = 'client' | 'client with SASL' | 'internal';

/** One handler and the listeners that serve it. */
export interface ApiTableRow {
  readonly handler: ApiHandler;
  readonly servedOn: readonly ServedOn[];
}

/** The Kafka APIs: the client listener serves them, and the internal one for Weir's own tools. */
const KAFKA: readonly ServedOn[] = ['client', 'internal'];
/**
 * The Weir-only APIs (keys 32000 and up), and Kafka's transaction inspection APIs
 * (DescribeTransactions, ListTransactions, DescribeProducers) and the partition reassignment APIs: Kafka defines these only in
 * flexible versions, and the client listener advertises flexible versions only where a client
 * needs them (docs/kafka-compat.md §3). The client listener never serves or advertises any of them.
 */
const INTERNAL_ONLY: readonly ServedOn[] = ['internal'];

/**
 * Every API handler of the broker and the listeners that serve it, the one place that says so.
 * ApiVersions is not a row: every listener serves it, and its registry builds it from the
 * listener's rows (handler-registry.ts). SaslAuthenticate has two rows: the client listener serves
 * v0–1 (it advertises no flexible version but ApiVersions v3), the internal one v0–2; likewise the
 * client quota APIs, v0 on the client listener and v0–1 on the internal one, DescribeLogDirs,
 * v0–1 and v0–4, and ElectLeaders, v0–1 and v0–2.
 */
export const API_TABLE: readonly ApiTableRow[] = [
  { handler: produceHandler, servedOn: KAFKA },
  { handler: fetchHandler, servedOn: KAFKA },
  { handler: listOffsetsHandler, servedOn: KAFKA },
  { handler: metadataHandler, servedOn: KAFKA },
  { handler: offsetForLeaderEpochHandler, servedOn: KAFKA },
  { handler: createTopicsHandler, servedOn: KAFKA },
  { handler: deleteTopicsHandler, servedOn: KAFKA },
  { handler: deleteRecordsHandler, servedOn: KAFKA },
  { handler: initProducerIdHandler, servedOn: KAFKA },
  { handler: createPartitionsHandler, servedOn: KAFKA },
  { handler: describeConfigsHandler, servedOn: KAFKA },
  { handler: alterConfigsHandler, servedOn: KAFKA },
  { handler: incrementalAlterConfigsHandler, servedOn: KAFKA },
  { handler: findCoordinatorHandler, servedOn: KAFKA },
  { handler: joinGroupHandler, servedOn: KAFKA },
  { handler: syncGroupHandler, servedOn: KAFKA },
  { handler: heartbeatHandler, servedOn: KAFKA },
  { handler: leaveGroupHandler, servedOn: KAFKA },
  { handler: offsetCommitHandler, servedOn: KAFKA },
  { handler: offsetFetchHandler, servedOn: KAFKA },
  { handler: listGroupsHandler, servedOn: KAFKA },
  { handler: describeGroupsHandler, servedOn: KAFKA },
  { handler: deleteGroupsHandler, servedOn: KAFKA },
  { handler: offsetDeleteHandler, servedOn: KAFKA },
  // The consumer group protocol (KIP-848), flexible only: kafkajs and librdkafka 2.0 never send
  // it, so advertising it changes nothing they negotiate (docs/kafka-compat.md §3).
  { handler: consumerGroupHeartbeatHandler, servedOn: KAFKA },
  { handler: consumerGroupDescribeHandler, servedOn: KAFKA },
  { handler: addPartitionsToTxnHandler, servedOn: KAFKA },
  { handler: addOffsetsToTxnHandler, servedOn: KAFKA },
  { handler: txnOffsetCommitHandler, servedOn: KAFKA },
  { handler: endTxnHandler, servedOn: KAFKA },
  { handler: describeAclsHandler, servedOn: KAFKA },
  { handler: createAclsHandler, servedOn: KAFKA },
  { handler: deleteAclsHandler, servedOn: KAFKA },
  { handler: clientDescribeClientQuotasHandler, servedOn: ['client'] },
  { handler: describeClientQuotasHandler, servedOn: ['internal'] },
  { handler: clientAlterClientQuotasHandler, servedOn: ['client'] },
  { handler: alterClientQuotasHandler, servedOn: ['internal'] },
  { handler: clientDescribeLogDirsHandler, servedOn: ['client'] },
  { handler: describeLogDirsHandler, servedOn: ['internal'] },
  { handler: clientElectLeadersHandler, servedOn: ['client'] },
  { handler: electLeadersHandler, servedOn: ['internal'] },
  { handler: saslHandshakeHandler, servedOn: ['client with SASL', 'internal'] },
  { handler: clientSaslAuthenticateHandler, servedOn: ['client with SASL'] },
  { handler: saslAuthenticateHandler, servedOn: ['internal'] },
  { handler: describeTransactionsHandler, servedOn: INTERNAL_ONLY },
  { handler: listTransactionsHandler, servedOn: INTERNAL_ONLY },
  { handler: describeProducersHandler, servedOn: INTERNAL_ONLY },
  { handler: listPartitionReassignmentsHandler, servedOn: INTERNAL_ONLY },
  { handler: alterPartitionReassignmentsHandler, servedOn: INTERNAL_ONLY },
  { handler: weirDescribeBrokerHandler, servedOn: INTERNAL_ONLY },
  { handler: weirListClusterEventsHandler, servedOn: INTERNAL_ONLY },
  { handler: weirListAuditEventsHandler, servedOn: INTERNAL_ONLY },
  { handler: weirDescribeLagHistoryHandler, servedOn: INTERNAL_ONLY },
  { handler: weirDescribeThroughputHistoryHandler, servedOn: INTERNAL_ONLY },
  { handler: weirDescribeReplicationHandler, servedOn: INTERNAL_ONLY },
  { handler: weirListTopicSummariesHandler, servedOn: INTERNAL_ONLY },
  { handler: weirDescribePartitionsHandler, servedOn: INTERNAL_ONLY },
  { handler: weirDescribeLogCleanerHandler, servedOn: INTERNAL_ONLY },
  { handler: weirDescribeGroupLagsHandler, servedOn: INTERNAL_ONLY },
  { handler: weirScanRecordsHandler, servedOn: INTERNAL_ONLY },
  { handler: weirAbortTransactionHandler, servedOn: INTERNAL_ONLY },
  { handler: weirListUsersHandler, servedOn: INTERNAL_ONLY },
  { handler: weirUpsertUserHandler, servedOn: INTERNAL_ONLY },
  { handler: weirDeleteUserHandler, servedOn: INTERNAL_ONLY },
  { handler: weirVerifyCredentialsHandler, servedOn: INTERNAL_ONLY },
  { handler: weirDescribeEffectivePermissionsHandler, servedOn: INTERNAL_ONLY },
  // Broker to broker: the coordinator's markers and the produce path's membership question.
  { handler: writeTxnMarkersHandler, servedOn: INTERNAL_ONLY },
  { handler: weirVerifyTransactionMembershipHandler, servedOn: INTERNAL_ONLY },
  { handler: weirApplyTxnOffsetsHandler, servedOn: INTERNAL_ONLY },
];

/** The handlers of the rows served on any of `listeners`. */
function handlersServedOn(listeners: readonly ServedOn[]): ApiHandler[] {
  return API_TABLE.filter((row) => row.servedOn.some((served) => listeners.includes(served))).map(
    (row) => row.handler,
  );
}

/** What the client listener serves; the SASL APIs only when it authenticates with SASL. */
export function clientListenerHandlers(sasl: boolean): ApiHandler[] {
  return handlersServedOn(sasl ? ['client', 'client with SASL'] : ['client']);
}

/** What the internal listener serves. */
export function internalListenerHandlers(): ApiHandler[] {
  return handlersServedOn(['internal']);
}
