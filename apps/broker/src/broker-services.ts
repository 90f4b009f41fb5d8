import type { AuditLog } from './audit/audit-log';
import type { LeaderElections } from './cluster/leader-elections';
import type { PartitionReassigner } from './cluster/partition-reassigner';
import type { ConfigManager } from './config-resources/config-manager';
import type { CoordinatorLocator } from './coordination/coordinator-locator';
import type { GroupCoordinator } from './group/group-coordinator';
import type { RoutedOffsetStaging } from './interbroker/routed-offset-staging';
import type { ClusterView } from './metadata/cluster-view';
import type { MetadataStore } from './metadata/metadata-store';
import type { OperatorViews } from './operator/operator-views';
import type { ProducerIdManager } from './producer-ids/producer-id-manager';
import type { ClientQuotas } from './quotas/client-quotas';
import type { ReplicaManager } from './replica/replica-manager';
import type { AclManager } from './security/acl/acl-manager';
import type { UserManager } from './security/users/user-manager';
import type { HistoryView } from './stats/history-view';
import type { TopicDescriptions } from './topics/topic-descriptions';
import type { TopicManager } from './topics/topic-manager';
import type { TransactionMarkerWriter } from './txn/transaction-contracts';
import type { TransactionCoordinator } from './txn/transaction-coordinator';

/**
 * The broker's domain services, as the request handlers call them (docs/architecture.md §1): each
 * owns one kind of state and its rules, and a handler translates between the wire and one of them,
 * nothing more. The internal listener's Weir-only APIs, the console's gateway behind them, and
 * authorization use the same services.
 */
export interface BrokerServices {
  /** Where things live: live brokers, the controller, topics and partition assignments. */
  cluster: ClusterView;
  /** Partition moves (AlterPartitionReassignments); the controller completes them. */
  reassignments: PartitionReassigner;
  /** Preferred and unclean leader elections on demand (ElectLeaders). */
  elections: LeaderElections;
  /** Creating, deleting and growing topics, and their configs. */
  topics: TopicManager;
  /** Topics as Metadata describes them, with auto-creation. */
  topicDescriptions: TopicDescriptions;
  /** The partitions on this broker: produce, fetch, offsets, records, producers. */
  replicas: ReplicaManager;
  /** Which broker coordinates a group or a transactional id (FindCoordinator). */
  coordinators: CoordinatorLocator;
  groups: GroupCoordinator;
  transactions: TransactionCoordinator;
  /** TxnOffsetCommit: staged at the transactional id's coordinator, here or on another broker. */
  transactionOffsets: RoutedOffsetStaging;
  /** Markers this broker appends as the leader of their partitions (WriteTxnMarkers from a coordinator). */
  transactionMarkers: TransactionMarkerWriter;
  /** Producer ids of idempotent producers (transactional ones come from the coordinator). */
  producerIds: ProducerIdManager;
  /** DescribeConfigs and AlterConfigs for topics and brokers. */
  configs: ConfigManager;
  /** SASL users: management over the internal listener, and the console's login check. */
  users: UserManager;
  /** ACL management and the authorization policy every request is checked against. */
  acls: AclManager;
  /** Client quotas: DescribeClientQuotas, AlterClientQuotas, and the usage the client listener enforces. */
  quotas: ClientQuotas;
  /** What Weir's operator tools read: overview, topic summaries, partitions, group lag, scans. */
  operator: OperatorViews;
  /** The replication timeline (WeirListClusterEvents), read from the metadata store. */
  clusterEvents: Pick<MetadataStore, 'listClusterEvents'>;
  /** Consumer lag and topic throughput over time, sampled here (stats/history-sampler.ts). */
  history: HistoryView;
  /** The administrative actions this broker handled (WeirListAuditEvents). */
  audit: Pick<AuditLog, 'list'>;
}
