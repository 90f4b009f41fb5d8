import type { AclCommands } from '../security/acl/acl-commands';
import type { UserCommands } from '../security/users/user-commands';
import type { BrokerOverviewCommands } from './broker-overview-commands';
import type { ClusterCommands } from './cluster-commands';
import type { ConfigCommands } from './config-commands';
import type { DataCommands } from './data-commands';
import type { GroupCommands } from './group-commands';
import type { GroupLagCommands } from './group-lag-commands';
import type { PartitionInternalsCommands } from './partition-internals-commands';
import type { ProducerIdCommands } from './producer-id-commands';
import type { RecordScanCommands } from './record-scan-commands';
import type { TopicCommands } from './topic-commands';
import type { TopicSummaryCommands } from './topic-summary-commands';
import type { TransactionMarkers } from './transaction-markers';
import type { TransactionCommands } from './txn-commands';

/**
 * The internal command boundary (docs/architecture.md §1): every operation the broker offers, typed, in
 * one place. Kafka API handlers only translate wire ↔ command; the internal listener, the admin
 * gateway and authorization use the same commands.
 */
export interface BrokerCommands {
  cluster: ClusterCommands;
  topics: TopicCommands;
  data: DataCommands;
  producers: ProducerIdCommands;
  /** Transactional producers' requests, transaction inspection and the operator's abort. */
  transactions: TransactionCommands;
  configs: ConfigCommands;
  groups: GroupCommands;
  /** The operator views the internal listener serves (Weir-only APIs). */
  overview: BrokerOverviewCommands;
  topicSummaries: TopicSummaryCommands;
  partitionInternals: PartitionInternalsCommands;
  groupLags: GroupLagCommands;
  recordScan: RecordScanCommands;
  /** Writes transaction markers to partitions (the coordinator's TransactionMarkerWriter). */
  markers: TransactionMarkers;
  /** SASL users: management over the internal listener, and the console's login check. */
  users: UserCommands;
  /** ACL management and the authorization policy every request is checked against. */
  acls: AclCommands;
}
