import {
  type AclBinding,
  AddOffsetsToTxn,
  AddPartitionsToTxn,
  AlterClientQuotas,
  AlterConfigs,
  AlterPartitionReassignments,
  type ApiSchema,
  ConsumerGroupDescribe,
  ConsumerGroupHeartbeat,
  CreateAcls,
  CreatePartitions,
  CreateTopics,
  DeleteAcls,
  DeleteGroups,
  DeleteRecords,
  DeleteTopics,
  DescribeAcls,
  DescribeClientQuotas,
  DescribeConfigs,
  DescribeGroups,
  DescribeLogDirs,
  DescribeProducers,
  DescribeTransactions,
  ElectLeaders,
  EndTxn,
  ErrorCode,
  Fetch,
  FindCoordinator,
  Heartbeat,
  IncrementalAlterConfigs,
  InitProducerId,
  JoinGroup,
  LeaveGroup,
  ListGroups,
  ListOffsets,
  ListPartitionReassignments,
  ListTransactions,
  Metadata,
  OffsetCommit,
  OffsetDelete,
  OffsetFetch,
  OffsetForLeaderEpoch,
  Produce,
  type RequestOf,
  SyncGroup,
  TxnOffsetCommit,
  WeirAbortTransaction,
  WeirApplyTxnOffsets,
  WeirDeleteUser,
  WeirDescribeBroker,
  WeirDescribeEffectivePermissions,
  WeirDescribeGroupLags,
  WeirDescribeLagHistory,
  WeirDescribeLogCleaner,
  WeirDescribePartitions,
  WeirDescribeReplication,
  WeirDescribeThroughputHistory,
  WeirListAuditEvents,
  WeirListClusterEvents,
  WeirListTopicSummaries,
  WeirListUsers,
  WeirScanRecords,
  WeirUpsertUser,
  WeirVerifyCredentials,
  WeirVerifyTransactionMembership,
  WriteTxnMarkers,
  ZERO_UUID,
} from '@weir/protocol';
import { batch, cluster, grant } from './acl-fixtures';

const TOPIC = ErrorCode.TOPIC_AUTHORIZATION_FAILED;
const GROUP = ErrorCode.GROUP_AUTHORIZATION_FAILED;
const CLUSTER = ErrorCode.CLUSTER_AUTHORIZATION_FAILED;
const TXN = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;

/**
 * One row of the authorization matrix: one API (or one flavour of it), the request every principal
 * sends, what User:granted needs for it, and what a principal without it gets: the denial code on
 * every item, or (lists) an answer without the protected item. Each row acts on the world
 * `seedWorld` makes.
 */
export interface Row<A extends ApiSchema = ApiSchema> {
  api: A;
  label: string;
  grants: AclBinding[];
  request: RequestOf<A>;
  expect: { denied: number } | { shows: (response: unknown) => boolean };
}

/** A row, with its request checked against its API's schema. */
function row<A extends ApiSchema>(definition: Row<A>): Row {
  return definition as unknown as Row;
}

export const ROWS: Row[] = [
  row({
    api: DescribeClientQuotas,
    label: 'DescribeClientQuotas',
    grants: [cluster('DESCRIBE_CONFIGS')],
    request: { components: [], strict: false },
    expect: { denied: CLUSTER },
  }),
  row({
    api: DescribeLogDirs,
    label: 'DescribeLogDirs',
    grants: [cluster('DESCRIBE')],
    request: { topics: null },
    // The client listener serves v0–1, which have no top-level error code: a denial is an answer
    // without any log directory.
    expect: { shows: (response) => (response as { results: unknown[] }).results.length > 0 },
  }),
  row({
    api: AlterClientQuotas,
    label: 'AlterClientQuotas',
    grants: [cluster('ALTER_CONFIGS')],
    request: {
      entries: [
        {
          entity: [{ entityType: 'client-id', entityName: 'acl-matrix-quota' }],
          ops: [{ key: 'request_percentage', value: 1000, remove: false }],
        },
      ],
      validateOnly: false,
    },
    expect: { denied: CLUSTER },
  }),
  row({
    api: Produce,
    label: 'Produce',
    grants: [grant('TOPIC', 'data', 'WRITE')],
    request: {
      transactionalId: null,
      acks: -1,
      timeoutMs: 5000,
      topicData: [{ name: 'data', partitionData: [{ index: 0, records: batch() }] }],
    },
    expect: { denied: TOPIC },
  }),
  row({
    api: Produce,
    label: 'Produce (transactional id)',
    grants: [grant('TOPIC', 'data', 'WRITE'), grant('TRANSACTIONAL_ID', 'tx', 'WRITE')],
    request: {
      transactionalId: 'tx',
      acks: -1,
      timeoutMs: 5000,
      topicData: [{ name: 'data', partitionData: [{ index: 0, records: batch() }] }],
    },
    expect: { denied: TXN },
  }),
  row({
    api: Produce,
    label: 'Produce (idempotent)',
    grants: [cluster('IDEMPOTENT_WRITE'), grant('TOPIC', 'data', 'WRITE')],
    request: {
      transactionalId: null,
      acks: -1,
      timeoutMs: 5000,
      topicData: [{ name: 'data', partitionData: [{ index: 0, records: batch(900n) }] }],
    },
    expect: { denied: CLUSTER },
  }),
  row({
    api: Fetch,
    label: 'Fetch',
    grants: [grant('TOPIC', 'data', 'READ')],
    request: {
      replicaId: -1,
      maxWaitMs: 0,
      minBytes: 0,
      maxBytes: 1 << 20,
      isolationLevel: 0,
      sessionId: 0,
      sessionEpoch: -1,
      topics: [
        {
          topic: 'data',
          partitions: [
            {
              partition: 0,
              currentLeaderEpoch: -1,
              fetchOffset: 0n,
              logStartOffset: -1n,
              partitionMaxBytes: 1 << 20,
            },
          ],
        },
      ],
      forgottenTopicsData: [],
      rackId: '',
    },
    expect: { denied: TOPIC },
  }),
  row({
    api: ListOffsets,
    label: 'ListOffsets',
    grants: [grant('TOPIC', 'data', 'DESCRIBE')],
    request: {
      replicaId: -1,
      isolationLevel: 0,
      topics: [
        {
          name: 'data',
          partitions: [{ partitionIndex: 0, currentLeaderEpoch: -1, timestamp: -1n, maxNumOffsets: 1 }],
        },
      ],
    },
    expect: { denied: TOPIC },
  }),
  row({
    api: OffsetForLeaderEpoch,
    label: 'OffsetForLeaderEpoch',
    grants: [grant('TOPIC', 'data', 'DESCRIBE')],
    request: {
      replicaId: -1,
      topics: [{ topic: 'data', partitions: [{ partition: 0, currentLeaderEpoch: -1, leaderEpoch: 0 }] }],
    },
    expect: { denied: TOPIC },
  }),
  row({
    api: Metadata,
    label: 'Metadata (named topic)',
    grants: [grant('TOPIC', 'data', 'DESCRIBE')],
    request: {
      topics: [{ topicId: ZERO_UUID, name: 'data' }],
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    },
    expect: { denied: TOPIC },
  }),
  row({
    api: Metadata,
    label: 'Metadata (all topics)',
    grants: [grant('TOPIC', 'data', 'DESCRIBE')],
    request: {
      topics: null,
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    },
    expect: {
      shows: (response) => (response as { topics: { name: string }[] }).topics.some((t) => t.name === 'data'),
    },
  }),
  row({
    api: Metadata,
    label: 'Metadata (auto-create)',
    grants: [grant('TOPIC', 'auto-', 'DESCRIBE', 'PREFIXED'), grant('TOPIC', 'auto-', 'CREATE', 'PREFIXED')],
    request: {
      topics: [{ topicId: ZERO_UUID, name: 'auto-created' }],
      allowAutoTopicCreation: true,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    },
    expect: { denied: TOPIC },
  }),
  row({
    api: CreateTopics,
    label: 'CreateTopics',
    grants: [grant('TOPIC', 'created', 'CREATE')],
    request: {
      topics: [{ name: 'created', numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] }],
      timeoutMs: 5000,
      validateOnly: false,
    },
    expect: { denied: TOPIC },
  }),
  row({
    api: DeleteTopics,
    label: 'DeleteTopics',
    grants: [grant('TOPIC', 'victim', 'DELETE')],
    request: { topicNames: ['victim'], timeoutMs: 5000 },
    expect: { denied: TOPIC },
  }),
  row({
    api: DeleteRecords,
    label: 'DeleteRecords',
    grants: [grant('TOPIC', 'data', 'DELETE')],
    request: {
      topics: [{ name: 'data', partitions: [{ partitionIndex: 0, offset: 1n }] }],
      timeoutMs: 5000,
    },
    expect: { denied: TOPIC },
  }),
  row({
    api: CreatePartitions,
    label: 'CreatePartitions',
    grants: [grant('TOPIC', 'grow', 'ALTER')],
    request: {
      topics: [{ name: 'grow', count: 2, assignments: null }],
      timeoutMs: 5000,
      validateOnly: false,
    },
    expect: { denied: TOPIC },
  }),
  row({
    api: DescribeConfigs,
    label: 'DescribeConfigs (topic)',
    grants: [grant('TOPIC', 'data', 'DESCRIBE_CONFIGS')],
    request: {
      resources: [{ resourceType: 2, resourceName: 'data', configurationKeys: null }],
      includeSynonyms: false,
      includeDocumentation: false,
    },
    expect: { denied: TOPIC },
  }),
  row({
    api: DescribeConfigs,
    label: 'DescribeConfigs (broker)',
    grants: [cluster('DESCRIBE_CONFIGS')],
    request: {
      resources: [{ resourceType: 4, resourceName: '0', configurationKeys: null }],
      includeSynonyms: false,
      includeDocumentation: false,
    },
    expect: { denied: CLUSTER },
  }),
  row({
    api: AlterConfigs,
    label: 'AlterConfigs',
    grants: [grant('TOPIC', 'data', 'ALTER_CONFIGS')],
    request: {
      resources: [
        { resourceType: 2, resourceName: 'data', configs: [{ name: 'retention.ms', value: '60000' }] },
      ],
      validateOnly: false,
    },
    expect: { denied: TOPIC },
  }),
  row({
    api: IncrementalAlterConfigs,
    label: 'IncrementalAlterConfigs',
    grants: [grant('TOPIC', 'data', 'ALTER_CONFIGS')],
    request: {
      resources: [
        {
          resourceType: 2,
          resourceName: 'data',
          configs: [{ name: 'retention.ms', configOperation: 0, value: '120000' }],
        },
      ],
      validateOnly: false,
    },
    expect: { denied: TOPIC },
  }),
  row({
    api: FindCoordinator,
    label: 'FindCoordinator (group)',
    grants: [grant('GROUP', 'grp', 'DESCRIBE')],
    request: { key: 'grp', keyType: 0 },
    expect: { denied: GROUP },
  }),
  row({
    api: FindCoordinator,
    label: 'FindCoordinator (transactional id)',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'DESCRIBE')],
    request: { key: 'tx', keyType: 1 },
    expect: { denied: TXN },
  }),
  row({
    api: JoinGroup,
    label: 'JoinGroup',
    grants: [grant('GROUP', 'joiners', 'READ')],
    request: {
      groupId: 'joiners',
      sessionTimeoutMs: 10_000,
      rebalanceTimeoutMs: 10_000,
      memberId: '',
      groupInstanceId: null,
      protocolType: 'consumer',
      protocols: [{ name: 'range', metadata: Buffer.alloc(0) }],
    },
    expect: { denied: GROUP },
  }),
  row({
    api: SyncGroup,
    label: 'SyncGroup',
    grants: [grant('GROUP', 'grp', 'READ')],
    request: {
      groupId: 'grp',
      generationId: 1,
      memberId: 'm',
      groupInstanceId: null,
      assignments: [],
    },
    expect: { denied: GROUP },
  }),
  row({
    api: Heartbeat,
    label: 'Heartbeat',
    grants: [grant('GROUP', 'grp', 'READ')],
    request: {
      groupId: 'grp',
      generationId: 1,
      memberId: 'm',
      groupInstanceId: null,
    },
    expect: { denied: GROUP },
  }),
  row({
    api: LeaveGroup,
    label: 'LeaveGroup',
    grants: [grant('GROUP', 'grp', 'READ')],
    request: {
      groupId: 'grp',
      memberId: 'm',
      members: [{ memberId: 'm', groupInstanceId: null }],
    },
    expect: { denied: GROUP },
  }),
  row({
    api: OffsetCommit,
    label: 'OffsetCommit',
    grants: [grant('GROUP', 'grp', 'READ'), grant('TOPIC', 'data', 'READ')],
    request: {
      groupId: 'grp',
      generationIdOrMemberEpoch: -1,
      memberId: '',
      groupInstanceId: null,
      retentionTimeMs: -1n,
      topics: [
        {
          name: 'data',
          partitions: [
            {
              partitionIndex: 0,
              committedOffset: 2n,
              committedLeaderEpoch: -1,
              commitTimestampMs: -1n,
              committedMetadata: '',
            },
          ],
        },
      ],
    },
    expect: { denied: GROUP },
  }),
  row({
    api: OffsetFetch,
    label: 'OffsetFetch',
    grants: [grant('GROUP', 'grp', 'DESCRIBE'), grant('TOPIC', 'data', 'DESCRIBE')],
    request: { groupId: 'grp', topics: [{ name: 'data', partitionIndexes: [0] }] },
    expect: { denied: GROUP },
  }),
  row({
    api: ListGroups,
    label: 'ListGroups',
    grants: [grant('GROUP', 'grp', 'DESCRIBE')],
    request: {},
    expect: {
      shows: (response) =>
        (response as { groups: { groupId: string }[] }).groups.some((g) => g.groupId === 'grp'),
    },
  }),
  row({
    api: DescribeGroups,
    label: 'DescribeGroups',
    grants: [grant('GROUP', 'grp', 'DESCRIBE')],
    request: { groups: ['grp'], includeAuthorizedOperations: true },
    expect: { denied: GROUP },
  }),
  row({
    api: ConsumerGroupHeartbeat,
    label: 'ConsumerGroupHeartbeat',
    grants: [grant('GROUP', 'grp', 'READ')],
    request: {
      groupId: 'grp',
      memberId: 'm',
      memberEpoch: 3,
      instanceId: null,
      rackId: null,
      rebalanceTimeoutMs: -1,
      subscribedTopicNames: null,
      serverAssignor: null,
      topicPartitions: null,
    },
    expect: { denied: GROUP },
  }),
  row({
    api: ConsumerGroupDescribe,
    label: 'ConsumerGroupDescribe',
    grants: [grant('GROUP', 'grp', 'DESCRIBE')],
    request: { groupIds: ['grp'], includeAuthorizedOperations: true },
    expect: { denied: GROUP },
  }),
  row({
    api: DeleteGroups,
    label: 'DeleteGroups',
    grants: [grant('GROUP', 'doomed', 'DELETE')],
    request: { groupsNames: ['doomed'] },
    expect: { denied: GROUP },
  }),
  row({
    api: InitProducerId,
    label: 'InitProducerId (transactional id)',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'WRITE')],
    request: { transactionalId: 'tx', transactionTimeoutMs: 60_000 },
    expect: { denied: TXN },
  }),
  row({
    api: InitProducerId,
    label: 'InitProducerId (idempotent)',
    grants: [cluster('IDEMPOTENT_WRITE')],
    request: { transactionalId: null, transactionTimeoutMs: 60_000 },
    expect: { denied: CLUSTER },
  }),
  row({
    api: AddPartitionsToTxn,
    label: 'AddPartitionsToTxn',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'WRITE'), grant('TOPIC', 'data', 'WRITE')],
    request: {
      v3AndBelowTransactionalId: 'tx',
      v3AndBelowProducerId: 12_345n,
      v3AndBelowProducerEpoch: 0,
      v3AndBelowTopics: [{ name: 'data', partitions: [0] }],
    },
    expect: { denied: TXN },
  }),
  row({
    api: AddOffsetsToTxn,
    label: 'AddOffsetsToTxn',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'WRITE'), grant('GROUP', 'grp', 'READ')],
    request: {
      transactionalId: 'tx',
      producerId: 12_345n,
      producerEpoch: 0,
      groupId: 'grp',
    },
    expect: { denied: TXN },
  }),
  row({
    api: TxnOffsetCommit,
    label: 'TxnOffsetCommit',
    grants: [
      grant('TRANSACTIONAL_ID', 'tx', 'WRITE'),
      grant('GROUP', 'grp', 'READ'),
      grant('TOPIC', 'data', 'READ'),
    ],
    request: {
      transactionalId: 'tx',
      groupId: 'grp',
      producerId: 12_345n,
      producerEpoch: 0,
      topics: [
        {
          name: 'data',
          partitions: [
            {
              partitionIndex: 0,
              committedOffset: 2n,
              committedLeaderEpoch: -1,
              committedMetadata: '',
            },
          ],
        },
      ],
    },
    expect: { denied: TXN },
  }),
  row({
    api: EndTxn,
    label: 'EndTxn',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'WRITE')],
    request: {
      transactionalId: 'tx',
      producerId: 12_345n,
      producerEpoch: 0,
      committed: false,
    },
    expect: { denied: TXN },
  }),
  row({
    api: OffsetDelete,
    label: 'OffsetDelete',
    grants: [grant('GROUP', 'grp', 'DELETE'), grant('TOPIC', 'data', 'READ')],
    request: {
      groupId: 'grp',
      topics: [{ name: 'data', partitions: [{ partitionIndex: 0 }] }],
    },
    expect: { denied: GROUP },
  }),
  row({
    api: DescribeAcls,
    label: 'DescribeAcls',
    grants: [cluster('DESCRIBE')],
    request: {
      resourceTypeFilter: 1,
      resourceNameFilter: null,
      patternTypeFilter: 1,
      principalFilter: null,
      hostFilter: null,
      operation: 1,
      permissionType: 1,
    },
    expect: { denied: CLUSTER },
  }),
  row({
    api: CreateAcls,
    label: 'CreateAcls',
    grants: [cluster('ALTER')],
    request: {
      creations: [
        {
          resourceType: 2,
          resourceName: 'data',
          resourcePatternType: 3,
          principal: 'User:someone',
          host: '*',
          operation: 3,
          permissionType: 3,
        },
      ],
    },
    expect: { denied: CLUSTER },
  }),
  row({
    api: DeleteAcls,
    label: 'DeleteAcls',
    grants: [cluster('ALTER')],
    request: {
      filters: [
        {
          resourceTypeFilter: 1,
          resourceNameFilter: null,
          patternTypeFilter: 1,
          principalFilter: 'User:someone',
          hostFilter: null,
          operation: 1,
          permissionType: 1,
        },
      ],
    },
    expect: { denied: CLUSTER },
  }),
  // The internal listener's APIs (and the flexible-only Kafka APIs it alone serves).
  row({
    api: WeirDescribeBroker,
    label: 'WeirDescribeBroker',
    grants: [cluster('DESCRIBE')],
    request: {},
    expect: { denied: CLUSTER },
  }),
  row({
    api: WeirListTopicSummaries,
    label: 'WeirListTopicSummaries',
    grants: [grant('TOPIC', 'data', 'DESCRIBE')],
    request: {
      search: '',
      includeInternal: false,
      sortBy: 'name',
      descending: false,
      offset: 0,
      limit: 100,
    },
    expect: {
      shows: (response) => (response as { topics: { name: string }[] }).topics.some((t) => t.name === 'data'),
    },
  }),
  row({
    api: WeirDescribePartitions,
    label: 'WeirDescribePartitions',
    grants: [grant('TOPIC', 'data', 'DESCRIBE')],
    request: { topic: 'data' },
    expect: { denied: TOPIC },
  }),
  row({
    api: WeirDescribeLogCleaner,
    label: 'WeirDescribeLogCleaner (named)',
    grants: [grant('TOPIC', 'data', 'DESCRIBE')],
    request: { topics: ['data'] },
    expect: { denied: TOPIC },
  }),
  row({
    api: WeirDescribeGroupLags,
    label: 'WeirDescribeGroupLags (all)',
    grants: [grant('GROUP', 'grp', 'DESCRIBE')],
    request: { groupIds: null },
    expect: {
      shows: (response) =>
        (response as { groups: { groupId: string }[] }).groups.some((g) => g.groupId === 'grp'),
    },
  }),
  row({
    api: WeirDescribeGroupLags,
    label: 'WeirDescribeGroupLags (named)',
    grants: [grant('GROUP', 'grp', 'DESCRIBE')],
    request: { groupIds: ['grp'] },
    expect: { denied: GROUP },
  }),
  row({
    api: WeirDescribeLagHistory,
    label: 'WeirDescribeLagHistory',
    grants: [grant('GROUP', 'grp', 'DESCRIBE')],
    request: { groupIds: ['grp'], sinceMs: 0n, includePartitions: true },
    expect: { denied: GROUP },
  }),
  row({
    api: WeirDescribeThroughputHistory,
    label: 'WeirDescribeThroughputHistory',
    grants: [grant('TOPIC', 'data', 'DESCRIBE')],
    request: { topics: ['data'], sinceMs: 0n },
    expect: { denied: TOPIC },
  }),
  row({
    api: WeirScanRecords,
    label: 'WeirScanRecords',
    grants: [grant('TOPIC', 'data', 'READ')],
    request: {
      topic: 'data',
      partitions: [{ partitionIndex: 0, startOffset: 0n, endOffset: 3n }],
      filters: [],
      maxMatchesPerPartition: 10,
      maxScanRecords: 100,
      maxScanMs: 1000,
      maxValueBytes: 100,
      isolationLevel: 0,
    },
    expect: { denied: TOPIC },
  }),
  row({
    api: WeirAbortTransaction,
    label: 'WeirAbortTransaction',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'WRITE'), cluster('ALTER')],
    request: { transactionalId: 'tx', reason: 'matrix' },
    expect: { denied: TXN },
  }),
  row({
    api: ListPartitionReassignments,
    label: 'ListPartitionReassignments',
    grants: [cluster('DESCRIBE')],
    request: { timeoutMs: 1000, topics: null },
    expect: { denied: CLUSTER },
  }),
  row({
    api: AlterPartitionReassignments,
    label: 'AlterPartitionReassignments',
    grants: [cluster('ALTER')],
    // Cancelling where nothing moves: refused per partition when allowed, so nothing changes either way.
    request: {
      timeoutMs: 1000,
      topics: [{ name: 'data', partitions: [{ partitionIndex: 0, replicas: null }] }],
    },
    expect: { denied: CLUSTER },
  }),
  row({
    api: ElectLeaders,
    label: 'ElectLeaders',
    grants: [cluster('ALTER')],
    // A standalone broker's partition has one replica, which leads: ELECTION_NOT_NEEDED once allowed.
    request: { electionType: 0, topicPartitions: [{ topic: 'data', partitions: [0] }], timeoutMs: 1000 },
    expect: { denied: CLUSTER },
  }),
  row({
    api: WeirListClusterEvents,
    label: 'WeirListClusterEvents',
    grants: [cluster('DESCRIBE')],
    request: { sinceMs: -1n, untilMs: -1n, topic: null, partition: -1, brokerId: -1, limit: 10 },
    expect: { denied: CLUSTER },
  }),
  row({
    api: WeirListAuditEvents,
    label: 'WeirListAuditEvents',
    grants: [cluster('DESCRIBE')],
    request: {
      sinceMs: -1n,
      untilMs: -1n,
      principal: null,
      action: null,
      resourceName: null,
      outcome: null,
      beforeId: null,
      limit: 10,
    },
    expect: { denied: CLUSTER },
  }),
  row({
    api: WeirDescribeReplication,
    label: 'WeirDescribeReplication',
    grants: [cluster('DESCRIBE')],
    request: { topics: null },
    expect: { denied: CLUSTER },
  }),
  row({
    api: WeirListUsers,
    label: 'WeirListUsers',
    grants: [cluster('DESCRIBE')],
    request: { usernames: null },
    expect: { denied: CLUSTER },
  }),
  row({
    api: WeirUpsertUser,
    label: 'WeirUpsertUser',
    grants: [cluster('ALTER')],
    request: {
      username: 'someone',
      mechanism: 'SCRAM-SHA-256',
      iterations: 0,
      password: 'someone-password-1',
      salt: null,
      saltedPassword: null,
    },
    expect: { denied: CLUSTER },
  }),
  row({
    api: WeirDeleteUser,
    label: 'WeirDeleteUser',
    grants: [cluster('ALTER')],
    request: { username: 'someone', mechanism: null },
    expect: { denied: CLUSTER },
  }),
  row({
    api: WeirVerifyCredentials,
    label: 'WeirVerifyCredentials',
    grants: [cluster('ALTER')],
    request: { username: 'nobody', password: 'wrong', remoteAddress: null },
    expect: { denied: CLUSTER },
  }),
  row({
    api: WeirDescribeEffectivePermissions,
    label: 'WeirDescribeEffectivePermissions (another principal)',
    grants: [cluster('DESCRIBE')],
    // About someone else: asking about oneself needs nothing, so it could not be denied.
    request: { principal: 'User:someone-else', host: '*' },
    expect: { denied: CLUSTER },
  }),
  row({
    api: WriteTxnMarkers,
    label: 'WriteTxnMarkers',
    grants: [cluster('CLUSTER_ACTION')],
    // An ABORT marker for a producer with nothing open: written when allowed, which the log accepts.
    request: {
      markers: [
        {
          producerId: 987_654n,
          producerEpoch: 0,
          transactionResult: false,
          topics: [{ name: 'data', partitionIndexes: [0] }],
          coordinatorEpoch: 0,
        },
      ],
    },
    expect: { denied: CLUSTER },
  }),
  row({
    api: WeirVerifyTransactionMembership,
    label: 'WeirVerifyTransactionMembership',
    grants: [cluster('CLUSTER_ACTION')],
    request: { transactionalId: 'tx', producerId: 0n, producerEpoch: 0, topic: 'data', partition: 0 },
    expect: { denied: CLUSTER },
  }),
  row({
    api: WeirApplyTxnOffsets,
    label: 'WeirApplyTxnOffsets',
    grants: [cluster('CLUSTER_ACTION')],
    request: {
      groupId: 'matrix-txn-group',
      producerId: 1n,
      producerEpoch: 0,
      offsets: [{ topic: 'data', partition: 0, offset: 1n, leaderEpoch: -1, metadata: null }],
    },
    expect: { denied: CLUSTER },
  }),
  row({
    api: DescribeTransactions,
    label: 'DescribeTransactions',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'DESCRIBE')],
    request: { transactionalIds: ['tx'] },
    expect: { denied: TXN },
  }),
  row({
    api: ListTransactions,
    label: 'ListTransactions',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'DESCRIBE')],
    request: { stateFilters: [], producerIdFilters: [] },
    expect: {
      shows: (response) =>
        (response as { transactionStates: { transactionalId: string }[] }).transactionStates.some(
          (row) => row.transactionalId === 'tx',
        ),
    },
  }),
  row({
    api: DescribeProducers,
    label: 'DescribeProducers',
    grants: [grant('TOPIC', 'data', 'READ')],
    request: { topics: [{ name: 'data', partitionIndexes: [0] }] },
    expect: { denied: TOPIC },
  }),
];
