import { type AclOperation, type AclResourceType, ErrorCode } from '@weir/protocol';

/** One way to be allowed: an operation on the request's resource of a type (or on any of them). */
export interface AclCheck {
  readonly resourceType: AclResourceType;
  readonly operation: AclOperation;
  /** Allowed on at least one resource of the type, whichever (Kafka's `authorizeByResourceType`). */
  readonly anyOfType?: true;
}

/** What one part of a request needs: any of the checks; the error code each denied item gets. */
export interface AclRule {
  readonly anyOf: readonly AclCheck[];
  readonly denied: number;
}

const DENIED_BY_TYPE: Readonly<Record<AclResourceType, number>> = {
  TOPIC: ErrorCode.TOPIC_AUTHORIZATION_FAILED,
  GROUP: ErrorCode.GROUP_AUTHORIZATION_FAILED,
  CLUSTER: ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
  TRANSACTIONAL_ID: ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
};

/** A rule of one check; denials carry the error of its resource type. */
function needs(resourceType: AclResourceType, operation: AclOperation): AclRule {
  return { anyOf: [{ resourceType, operation }], denied: DENIED_BY_TYPE[resourceType] };
}

const topic = (operation: AclOperation) => needs('TOPIC', operation);
const group = (operation: AclOperation) => needs('GROUP', operation);
const cluster = (operation: AclOperation) => needs('CLUSTER', operation);
const transactionalId = (operation: AclOperation) => needs('TRANSACTIONAL_ID', operation);

/** CREATE on the cluster covers every topic; CREATE on a topic (or a prefix) covers that one. */
const CREATE_TOPIC: AclRule = {
  anyOf: [
    { resourceType: 'CLUSTER', operation: 'CREATE' },
    { resourceType: 'TOPIC', operation: 'CREATE' },
  ],
  denied: ErrorCode.TOPIC_AUTHORIZATION_FAILED,
};

/**
 * An idempotent producer without a transactional id: IDEMPOTENT_WRITE on the cluster, or (KIP-679,
 * Kafka 2.8+) WRITE on any topic or transactional id, since such a principal can write anyway.
 */
const IDEMPOTENT_WRITE: AclRule = {
  anyOf: [
    { resourceType: 'CLUSTER', operation: 'IDEMPOTENT_WRITE' },
    { resourceType: 'TOPIC', operation: 'WRITE', anyOfType: true },
    { resourceType: 'TRANSACTIONAL_ID', operation: 'WRITE', anyOfType: true },
  ],
  denied: ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
};

/** Config resources: topics by name, the broker (and its loggers) as the cluster. */
const configs = (operation: 'DESCRIBE_CONFIGS' | 'ALTER_CONFIGS') => ({
  topic: topic(operation),
  broker: cluster(operation),
});

/** Group membership: every member request needs READ on the group. */
const MEMBER = { group: group('READ') };

/**
 * What every served API needs, by API name: Kafka's mapping (`KafkaApis`), one table so it can be
 * reviewed in one place. Handlers name the part (`API_ACL_RULES.Produce.topic`) and the resource;
 * the operation and the denial code come from here. The handler registries refuse to start with a
 * handler whose API has no entry here, so a new API cannot go unauthorized by omission.
 *
 * Where Kafka and the list differ, Kafka wins: OffsetFetch needs DESCRIBE on topics (READ
 * implies it), TxnOffsetCommit also needs WRITE on the transactional id.
 */
export const API_ACL_RULES = {
  // Before and during authentication there is nothing to authorize yet.
  ApiVersions: {},
  SaslHandshake: {},
  SaslAuthenticate: {},

  // Data path.
  Produce: {
    topic: topic('WRITE'),
    transactionalId: transactionalId('WRITE'),
    idempotent: IDEMPOTENT_WRITE,
  },
  /** A follower's fetch (replica_id >= 0) needs CLUSTER_ACTION instead, as in Kafka. */
  Fetch: { topic: topic('READ'), cluster: cluster('CLUSTER_ACTION') },
  ListOffsets: { topic: topic('DESCRIBE') },
  /** A broker's principal (CLUSTER_ACTION) may ask about any topic, as followers do in Kafka. */
  OffsetForLeaderEpoch: {
    topic: {
      anyOf: [
        { resourceType: 'CLUSTER', operation: 'CLUSTER_ACTION' },
        { resourceType: 'TOPIC', operation: 'DESCRIBE' },
      ],
      denied: ErrorCode.TOPIC_AUTHORIZATION_FAILED,
    },
  },
  /** Unauthorized topics are left out of an all-topics answer and refused when named. */
  Metadata: { describe: topic('DESCRIBE'), autoCreate: CREATE_TOPIC },

  // Topics and configs.
  CreateTopics: { create: CREATE_TOPIC },
  DeleteTopics: { topic: topic('DELETE') },
  DeleteRecords: { topic: topic('DELETE') },
  CreatePartitions: { topic: topic('ALTER') },
  DescribeConfigs: configs('DESCRIBE_CONFIGS'),
  AlterConfigs: configs('ALTER_CONFIGS'),
  IncrementalAlterConfigs: configs('ALTER_CONFIGS'),
  /** Client quotas are cluster configuration in Kafka (KIP-546). */
  DescribeClientQuotas: { cluster: cluster('DESCRIBE_CONFIGS') },
  AlterClientQuotas: { cluster: cluster('ALTER_CONFIGS') },
  /** Kafka's rule: DESCRIBE on the cluster, since the answer names every partition on the broker. */
  DescribeLogDirs: { cluster: cluster('DESCRIBE') },

  // Groups.
  FindCoordinator: { group: group('DESCRIBE'), transactionalId: transactionalId('DESCRIBE') },
  JoinGroup: MEMBER,
  SyncGroup: MEMBER,
  Heartbeat: MEMBER,
  LeaveGroup: MEMBER,
  OffsetCommit: { group: group('READ'), topic: topic('READ') },
  OffsetFetch: { group: group('DESCRIBE'), topic: topic('DESCRIBE') },
  /** DESCRIBE on the cluster lists every group; otherwise the groups the principal may describe. */
  ListGroups: { all: cluster('DESCRIBE'), group: group('DESCRIBE') },
  DescribeGroups: { group: group('DESCRIBE') },
  // The consumer group protocol (KIP-848): Kafka 3.9 checks the group only.
  ConsumerGroupHeartbeat: MEMBER,
  ConsumerGroupDescribe: { group: group('DESCRIBE') },
  DeleteGroups: { group: group('DELETE') },
  OffsetDelete: { group: group('DELETE'), topic: topic('READ') },

  // Transactions.
  InitProducerId: { transactionalId: transactionalId('WRITE'), idempotent: IDEMPOTENT_WRITE },
  AddPartitionsToTxn: { transactionalId: transactionalId('WRITE'), topic: topic('WRITE') },
  AddOffsetsToTxn: { transactionalId: transactionalId('WRITE'), group: group('READ') },
  TxnOffsetCommit: { transactionalId: transactionalId('WRITE'), group: group('READ'), topic: topic('READ') },
  EndTxn: { transactionalId: transactionalId('WRITE') },
  DescribeTransactions: { transactionalId: transactionalId('DESCRIBE'), topic: topic('DESCRIBE') },
  ListTransactions: { transactionalId: transactionalId('DESCRIBE') },
  DescribeProducers: { topic: topic('READ') },
  /** Broker to broker only: Kafka's CLUSTER_ACTION, which the broker principal has as a super user. */
  WriteTxnMarkers: { cluster: cluster('CLUSTER_ACTION') },

  // Partition reassignment and leader election (Kafka's rules: ALTER to change, DESCRIBE to list).
  ListPartitionReassignments: { cluster: cluster('DESCRIBE') },
  AlterPartitionReassignments: { cluster: cluster('ALTER') },
  ElectLeaders: { cluster: cluster('ALTER') },

  // ACLs.
  DescribeAcls: { cluster: cluster('DESCRIBE') },
  CreateAcls: { cluster: cluster('ALTER') },
  DeleteAcls: { cluster: cluster('ALTER') },

  // Weir's internal APIs (internal listener).
  WeirDescribeBroker: { cluster: cluster('DESCRIBE') },
  WeirListTopicSummaries: { topic: topic('DESCRIBE'), group: group('DESCRIBE') },
  WeirDescribePartitions: { topic: topic('DESCRIBE') },
  WeirDescribeLogCleaner: { topic: topic('DESCRIBE') },
  WeirDescribeGroupLags: { group: group('DESCRIBE') },
  WeirDescribeLagHistory: { group: group('DESCRIBE') },
  WeirDescribeThroughputHistory: { topic: topic('DESCRIBE') },
  WeirScanRecords: { topic: topic('READ') },
  WeirAbortTransaction: { transactionalId: transactionalId('WRITE'), cluster: cluster('ALTER') },
  WeirListUsers: { cluster: cluster('DESCRIBE') },
  WeirListClusterEvents: { cluster: cluster('DESCRIBE') },
  WeirListAuditEvents: { cluster: cluster('DESCRIBE') },
  WeirDescribeReplication: { cluster: cluster('DESCRIBE') },
  WeirUpsertUser: { cluster: cluster('ALTER') },
  WeirDeleteUser: { cluster: cluster('ALTER') },
  /** Checking passwords is user management: it must not become a guessing oracle for anyone. */
  WeirVerifyCredentials: { cluster: cluster('ALTER') },
  /** Another principal's rights; the handler answers a principal about itself without this. */
  WeirDescribeEffectivePermissions: { cluster: cluster('DESCRIBE') },
  /** A partition leader asking the transaction coordinator, broker to broker (as WriteTxnMarkers). */
  WeirVerifyTransactionMembership: { cluster: cluster('CLUSTER_ACTION') },
  /** A transaction coordinator handing committed offsets to the group's coordinator. */
  WeirApplyTxnOffsets: { cluster: cluster('CLUSTER_ACTION') },
} as const satisfies Record<string, Record<string, AclRule>>;

/**
 * Throws unless every API is in {@link API_ACL_RULES}; called when a handler registry is built, so
 * a handler added without its authorization fails at start instead of serving everyone.
 */
export function assertAclRulesFor(apiNames: readonly string[]): void {
  const missing = apiNames.filter((name) => !Object.hasOwn(API_ACL_RULES, name));
  if (missing.length > 0) {
    throw new Error(`no authorization rule for ${missing.join(', ')}; add it to API_ACL_RULES`);
  }
}
