import {
  type AclBinding,
  AddOffsetsToTxn,
  AddPartitionsToTxn,
  AlterConfigs,
  type Client,
  CreateAcls,
  CreatePartitions,
  CreateTopics,
  DeleteAcls,
  DeleteGroups,
  DeleteRecords,
  DeleteTopics,
  DescribeAcls,
  DescribeConfigs,
  DescribeGroups,
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
  Metadata,
  OffsetCommit,
  OffsetDelete,
  OffsetFetch,
  Produce,
  SyncGroup,
  TxnOffsetCommit,
} from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Broker } from '../src/broker';
import type { ApiHandler } from '../src/server/handler';
import { internalHandlers } from '../src/server/internal-registry';
import { clientHandlers } from '../src/server/registry';
import {
  batch,
  clientAs,
  cluster,
  errorCodesIn,
  grant,
  handleAs,
  PRINCIPAL_OF,
  type PrincipalKind,
  securePlaintextConfig,
  secureSaslConfig,
  seedWorld,
  worldSnapshot,
} from './acl-fixtures';
import { type RunningBroker, startBroker } from './broker-harness';

const AUTHORIZATION_FAILURES: ReadonlySet<number> = new Set([
  ErrorCode.TOPIC_AUTHORIZATION_FAILED,
  ErrorCode.GROUP_AUTHORIZATION_FAILED,
  ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
  ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
]);

/** How a row asks: over the wire as the principal's client, or (internal APIs) through the handler. */
type Ask = (on: { client: Client; broker: Broker; principal: string }) => Promise<unknown>;

/**
 * One API (or one flavour of it): what User:granted needs for it, how to ask, and what a principal
 * without it gets: the denial code on every item, or (lists) an answer without the protected item.
 */
interface Row {
  api: string;
  label: string;
  grants: AclBinding[];
  ask: Ask;
  expect: { denied: number } | { shows: (response: unknown) => boolean };
}

const TOPIC = ErrorCode.TOPIC_AUTHORIZATION_FAILED;
const GROUP = ErrorCode.GROUP_AUTHORIZATION_FAILED;
const CLUSTER = ErrorCode.CLUSTER_AUTHORIZATION_FAILED;
const TXN = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;

const internal = new Map(internalHandlers().map((handler) => [handler.api.name, handler]));
function internalAsk(name: string, request: unknown): Ask {
  const handler = internal.get(name) as ApiHandler | undefined;
  if (handler === undefined) throw new Error(`no internal handler ${name}`);
  return ({ broker, principal }) => handleAs(broker, principal, handler, request as never);
}

const ROWS: Row[] = [
  {
    api: 'Produce',
    label: 'Produce',
    grants: [grant('TOPIC', 'data', 'WRITE')],
    ask: ({ client }) =>
      client.send('any', Produce, {
        transactionalId: null,
        acks: -1,
        timeoutMs: 5000,
        topicData: [{ name: 'data', partitionData: [{ index: 0, records: batch() }] }],
      }),
    expect: { denied: TOPIC },
  },
  {
    api: 'Produce',
    label: 'Produce (transactional id)',
    grants: [grant('TOPIC', 'data', 'WRITE'), grant('TRANSACTIONAL_ID', 'tx', 'WRITE')],
    ask: ({ client }) =>
      client.send('any', Produce, {
        transactionalId: 'tx',
        acks: -1,
        timeoutMs: 5000,
        topicData: [{ name: 'data', partitionData: [{ index: 0, records: batch() }] }],
      }),
    expect: { denied: TXN },
  },
  {
    api: 'Produce',
    label: 'Produce (idempotent)',
    grants: [cluster('IDEMPOTENT_WRITE'), grant('TOPIC', 'data', 'WRITE')],
    ask: ({ client }) =>
      client.send('any', Produce, {
        transactionalId: null,
        acks: -1,
        timeoutMs: 5000,
        topicData: [{ name: 'data', partitionData: [{ index: 0, records: batch(900n) }] }],
      }),
    expect: { denied: CLUSTER },
  },
  {
    api: 'Fetch',
    label: 'Fetch',
    grants: [grant('TOPIC', 'data', 'READ')],
    ask: ({ client }) =>
      client.send('any', Fetch, {
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
      }),
    expect: { denied: TOPIC },
  },
  {
    api: 'ListOffsets',
    label: 'ListOffsets',
    grants: [grant('TOPIC', 'data', 'DESCRIBE')],
    ask: ({ client }) =>
      client.send('any', ListOffsets, {
        replicaId: -1,
        isolationLevel: 0,
        topics: [{ name: 'data', partitions: [{ partitionIndex: 0, timestamp: -1n }] }],
      }),
    expect: { denied: TOPIC },
  },
  {
    api: 'Metadata',
    label: 'Metadata (named topic)',
    grants: [grant('TOPIC', 'data', 'DESCRIBE')],
    ask: ({ client }) =>
      client.send('any', Metadata, { topics: [{ name: 'data' }], allowAutoTopicCreation: false }),
    expect: { denied: TOPIC },
  },
  {
    api: 'Metadata',
    label: 'Metadata (all topics)',
    grants: [grant('TOPIC', 'data', 'DESCRIBE')],
    ask: ({ client }) => client.send('any', Metadata, { topics: null, allowAutoTopicCreation: false }),
    expect: {
      shows: (response) => (response as { topics: { name: string }[] }).topics.some((t) => t.name === 'data'),
    },
  },
  {
    api: 'Metadata',
    label: 'Metadata (auto-create)',
    grants: [grant('TOPIC', 'auto-', 'DESCRIBE', 'PREFIXED'), grant('TOPIC', 'auto-', 'CREATE', 'PREFIXED')],
    ask: ({ client }) =>
      client.send('any', Metadata, { topics: [{ name: 'auto-created' }], allowAutoTopicCreation: true }),
    expect: { denied: TOPIC },
  },
  {
    api: 'CreateTopics',
    label: 'CreateTopics',
    grants: [grant('TOPIC', 'created', 'CREATE')],
    ask: ({ client }) =>
      client.send('any', CreateTopics, {
        topics: [{ name: 'created', numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] }],
        timeoutMs: 5000,
        validateOnly: false,
      }),
    expect: { denied: TOPIC },
  },
  {
    api: 'DeleteTopics',
    label: 'DeleteTopics',
    grants: [grant('TOPIC', 'victim', 'DELETE')],
    ask: ({ client }) => client.send('any', DeleteTopics, { topicNames: ['victim'], timeoutMs: 5000 }),
    expect: { denied: TOPIC },
  },
  {
    api: 'DeleteRecords',
    label: 'DeleteRecords',
    grants: [grant('TOPIC', 'data', 'DELETE')],
    ask: ({ client }) =>
      client.send('any', DeleteRecords, {
        topics: [{ name: 'data', partitions: [{ partitionIndex: 0, offset: 1n }] }],
        timeoutMs: 5000,
      }),
    expect: { denied: TOPIC },
  },
  {
    api: 'CreatePartitions',
    label: 'CreatePartitions',
    grants: [grant('TOPIC', 'grow', 'ALTER')],
    ask: ({ client }) =>
      client.send('any', CreatePartitions, {
        topics: [{ name: 'grow', count: 2, assignments: null }],
        timeoutMs: 5000,
        validateOnly: false,
      }),
    expect: { denied: TOPIC },
  },
  {
    api: 'DescribeConfigs',
    label: 'DescribeConfigs (topic)',
    grants: [grant('TOPIC', 'data', 'DESCRIBE_CONFIGS')],
    ask: ({ client }) =>
      client.send('any', DescribeConfigs, {
        resources: [{ resourceType: 2, resourceName: 'data', configurationKeys: null }],
        includeSynonyms: false,
      }),
    expect: { denied: TOPIC },
  },
  {
    api: 'DescribeConfigs',
    label: 'DescribeConfigs (broker)',
    grants: [cluster('DESCRIBE_CONFIGS')],
    ask: ({ client }) =>
      client.send('any', DescribeConfigs, {
        resources: [{ resourceType: 4, resourceName: '0', configurationKeys: null }],
        includeSynonyms: false,
      }),
    expect: { denied: CLUSTER },
  },
  {
    api: 'AlterConfigs',
    label: 'AlterConfigs',
    grants: [grant('TOPIC', 'data', 'ALTER_CONFIGS')],
    ask: ({ client }) =>
      client.send('any', AlterConfigs, {
        resources: [
          { resourceType: 2, resourceName: 'data', configs: [{ name: 'retention.ms', value: '60000' }] },
        ],
        validateOnly: false,
      }),
    expect: { denied: TOPIC },
  },
  {
    api: 'IncrementalAlterConfigs',
    label: 'IncrementalAlterConfigs',
    grants: [grant('TOPIC', 'data', 'ALTER_CONFIGS')],
    ask: ({ client }) =>
      client.send('any', IncrementalAlterConfigs, {
        resources: [
          {
            resourceType: 2,
            resourceName: 'data',
            configs: [{ name: 'retention.ms', configOperation: 0, value: '120000' }],
          },
        ],
        validateOnly: false,
      }),
    expect: { denied: TOPIC },
  },
  {
    api: 'FindCoordinator',
    label: 'FindCoordinator (group)',
    grants: [grant('GROUP', 'grp', 'DESCRIBE')],
    ask: ({ client }) => client.send('any', FindCoordinator, { key: 'grp', keyType: 0 }),
    expect: { denied: GROUP },
  },
  {
    api: 'FindCoordinator',
    label: 'FindCoordinator (transactional id)',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'DESCRIBE')],
    ask: ({ client }) => client.send('any', FindCoordinator, { key: 'tx', keyType: 1 }),
    expect: { denied: TXN },
  },
  {
    api: 'JoinGroup',
    label: 'JoinGroup',
    grants: [grant('GROUP', 'joiners', 'READ')],
    ask: ({ client }) =>
      client.send('any', JoinGroup, {
        groupId: 'joiners',
        sessionTimeoutMs: 10_000,
        rebalanceTimeoutMs: 10_000,
        memberId: '',
        groupInstanceId: null,
        protocolType: 'consumer',
        protocols: [{ name: 'range', metadata: Buffer.alloc(0) }],
      }),
    expect: { denied: GROUP },
  },
  {
    api: 'SyncGroup',
    label: 'SyncGroup',
    grants: [grant('GROUP', 'grp', 'READ')],
    ask: ({ client }) =>
      client.send('any', SyncGroup, {
        groupId: 'grp',
        generationId: 1,
        memberId: 'm',
        groupInstanceId: null,
        assignments: [],
      }),
    expect: { denied: GROUP },
  },
  {
    api: 'Heartbeat',
    label: 'Heartbeat',
    grants: [grant('GROUP', 'grp', 'READ')],
    ask: ({ client }) =>
      client.send('any', Heartbeat, {
        groupId: 'grp',
        generationId: 1,
        memberId: 'm',
        groupInstanceId: null,
      }),
    expect: { denied: GROUP },
  },
  {
    api: 'LeaveGroup',
    label: 'LeaveGroup',
    grants: [grant('GROUP', 'grp', 'READ')],
    ask: ({ client }) =>
      client.send('any', LeaveGroup, {
        groupId: 'grp',
        memberId: 'm',
        members: [{ memberId: 'm', groupInstanceId: null }],
      }),
    expect: { denied: GROUP },
  },
  {
    api: 'OffsetCommit',
    label: 'OffsetCommit',
    grants: [grant('GROUP', 'grp', 'READ'), grant('TOPIC', 'data', 'READ')],
    ask: ({ client }) =>
      client.send('any', OffsetCommit, {
        groupId: 'grp',
        generationIdOrMemberEpoch: -1,
        memberId: '',
        groupInstanceId: null,
        retentionTimeMs: -1n,
        topics: [
          {
            name: 'data',
            partitions: [
              { partitionIndex: 0, committedOffset: 2n, committedLeaderEpoch: -1, committedMetadata: '' },
            ],
          },
        ],
      }),
    expect: { denied: GROUP },
  },
  {
    api: 'OffsetFetch',
    label: 'OffsetFetch',
    grants: [grant('GROUP', 'grp', 'DESCRIBE'), grant('TOPIC', 'data', 'DESCRIBE')],
    ask: ({ client }) =>
      client.send('any', OffsetFetch, { groupId: 'grp', topics: [{ name: 'data', partitionIndexes: [0] }] }),
    expect: { denied: GROUP },
  },
  {
    api: 'ListGroups',
    label: 'ListGroups',
    grants: [grant('GROUP', 'grp', 'DESCRIBE')],
    ask: ({ client }) => client.send('any', ListGroups, {}),
    expect: {
      shows: (response) =>
        (response as { groups: { groupId: string }[] }).groups.some((g) => g.groupId === 'grp'),
    },
  },
  {
    api: 'DescribeGroups',
    label: 'DescribeGroups',
    grants: [grant('GROUP', 'grp', 'DESCRIBE')],
    ask: ({ client }) =>
      client.send('any', DescribeGroups, { groups: ['grp'], includeAuthorizedOperations: true }),
    expect: { denied: GROUP },
  },
  {
    api: 'DeleteGroups',
    label: 'DeleteGroups',
    grants: [grant('GROUP', 'doomed', 'DELETE')],
    ask: ({ client }) => client.send('any', DeleteGroups, { groupsNames: ['doomed'] }),
    expect: { denied: GROUP },
  },
  {
    api: 'InitProducerId',
    label: 'InitProducerId (transactional id)',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'WRITE')],
    ask: ({ client }) =>
      client.send('any', InitProducerId, { transactionalId: 'tx', transactionTimeoutMs: 60_000 }),
    expect: { denied: TXN },
  },
  {
    api: 'InitProducerId',
    label: 'InitProducerId (idempotent)',
    grants: [cluster('IDEMPOTENT_WRITE')],
    ask: ({ client }) =>
      client.send('any', InitProducerId, { transactionalId: null, transactionTimeoutMs: 60_000 }),
    expect: { denied: CLUSTER },
  },
  {
    api: 'AddPartitionsToTxn',
    label: 'AddPartitionsToTxn',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'WRITE'), grant('TOPIC', 'data', 'WRITE')],
    ask: ({ client }) =>
      client.send('any', AddPartitionsToTxn, {
        v3AndBelowTransactionalId: 'tx',
        v3AndBelowProducerId: 12_345n,
        v3AndBelowProducerEpoch: 0,
        v3AndBelowTopics: [{ name: 'data', partitions: [0] }],
      }),
    expect: { denied: TXN },
  },
  {
    api: 'AddOffsetsToTxn',
    label: 'AddOffsetsToTxn',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'WRITE'), grant('GROUP', 'grp', 'READ')],
    ask: ({ client }) =>
      client.send('any', AddOffsetsToTxn, {
        transactionalId: 'tx',
        producerId: 12_345n,
        producerEpoch: 0,
        groupId: 'grp',
      }),
    expect: { denied: TXN },
  },
  {
    api: 'TxnOffsetCommit',
    label: 'TxnOffsetCommit',
    grants: [
      grant('TRANSACTIONAL_ID', 'tx', 'WRITE'),
      grant('GROUP', 'grp', 'READ'),
      grant('TOPIC', 'data', 'READ'),
    ],
    ask: ({ client }) =>
      client.send('any', TxnOffsetCommit, {
        transactionalId: 'tx',
        groupId: 'grp',
        producerId: 12_345n,
        producerEpoch: 0,
        topics: [
          {
            name: 'data',
            partitions: [
              { partitionIndex: 0, committedOffset: 2n, committedLeaderEpoch: -1, committedMetadata: '' },
            ],
          },
        ],
      }),
    expect: { denied: TXN },
  },
  {
    api: 'EndTxn',
    label: 'EndTxn',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'WRITE')],
    ask: ({ client }) =>
      client.send('any', EndTxn, {
        transactionalId: 'tx',
        producerId: 12_345n,
        producerEpoch: 0,
        committed: false,
      }),
    expect: { denied: TXN },
  },
  {
    api: 'OffsetDelete',
    label: 'OffsetDelete',
    grants: [grant('GROUP', 'grp', 'DELETE'), grant('TOPIC', 'data', 'READ')],
    ask: ({ client }) =>
      client.send('any', OffsetDelete, {
        groupId: 'grp',
        topics: [{ name: 'data', partitions: [{ partitionIndex: 0 }] }],
      }),
    expect: { denied: GROUP },
  },
  {
    api: 'DescribeAcls',
    label: 'DescribeAcls',
    grants: [cluster('DESCRIBE')],
    ask: ({ client }) =>
      client.send('any', DescribeAcls, {
        resourceTypeFilter: 1,
        resourceNameFilter: null,
        patternTypeFilter: 1,
        principalFilter: null,
        hostFilter: null,
        operation: 1,
        permissionType: 1,
      }),
    expect: { denied: CLUSTER },
  },
  {
    api: 'CreateAcls',
    label: 'CreateAcls',
    grants: [cluster('ALTER')],
    ask: ({ client }) =>
      client.send('any', CreateAcls, {
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
      }),
    expect: { denied: CLUSTER },
  },
  {
    api: 'DeleteAcls',
    label: 'DeleteAcls',
    grants: [cluster('ALTER')],
    ask: ({ client }) =>
      client.send('any', DeleteAcls, {
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
      }),
    expect: { denied: CLUSTER },
  },
  // The internal listener's APIs: asked through their handlers, as the principal.
  {
    api: 'WeirDescribeBroker',
    label: 'WeirDescribeBroker',
    grants: [cluster('DESCRIBE')],
    ask: internalAsk('WeirDescribeBroker', {}),
    expect: { denied: CLUSTER },
  },
  {
    api: 'WeirListTopicSummaries',
    label: 'WeirListTopicSummaries',
    grants: [grant('TOPIC', 'data', 'DESCRIBE')],
    ask: internalAsk('WeirListTopicSummaries', {
      search: '',
      includeInternal: false,
      sortBy: 'name',
      descending: false,
      offset: 0,
      limit: 100,
    }),
    expect: {
      shows: (response) => (response as { topics: { name: string }[] }).topics.some((t) => t.name === 'data'),
    },
  },
  {
    api: 'WeirDescribePartitions',
    label: 'WeirDescribePartitions',
    grants: [grant('TOPIC', 'data', 'DESCRIBE')],
    ask: internalAsk('WeirDescribePartitions', { topic: 'data' }),
    expect: { denied: TOPIC },
  },
  {
    api: 'WeirDescribeGroupLags',
    label: 'WeirDescribeGroupLags (all)',
    grants: [grant('GROUP', 'grp', 'DESCRIBE')],
    ask: internalAsk('WeirDescribeGroupLags', { groupIds: null }),
    expect: {
      shows: (response) =>
        (response as { groups: { groupId: string }[] }).groups.some((g) => g.groupId === 'grp'),
    },
  },
  {
    api: 'WeirDescribeGroupLags',
    label: 'WeirDescribeGroupLags (named)',
    grants: [grant('GROUP', 'grp', 'DESCRIBE')],
    ask: internalAsk('WeirDescribeGroupLags', { groupIds: ['grp'] }),
    expect: { denied: GROUP },
  },
  {
    api: 'WeirScanRecords',
    label: 'WeirScanRecords',
    grants: [grant('TOPIC', 'data', 'READ')],
    ask: internalAsk('WeirScanRecords', {
      topic: 'data',
      partitions: [{ partitionIndex: 0, startOffset: 0n, endOffset: 3n }],
      filters: [],
      maxMatchesPerPartition: 10,
      maxScanRecords: 100,
      maxScanMs: 1000,
      maxValueBytes: 100,
    }),
    expect: { denied: TOPIC },
  },
  {
    api: 'WeirAbortTransaction',
    label: 'WeirAbortTransaction',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'WRITE'), cluster('ALTER')],
    ask: internalAsk('WeirAbortTransaction', { transactionalId: 'tx', reason: 'matrix' }),
    expect: { denied: TXN },
  },
  {
    api: 'WeirListUsers',
    label: 'WeirListUsers',
    grants: [cluster('DESCRIBE')],
    ask: internalAsk('WeirListUsers', {}),
    expect: { denied: CLUSTER },
  },
  {
    api: 'WeirUpsertUser',
    label: 'WeirUpsertUser',
    grants: [cluster('ALTER')],
    ask: internalAsk('WeirUpsertUser', {
      username: 'someone',
      mechanism: 'SCRAM-SHA-256',
      iterations: 0,
      password: 'someone-password-1',
      salt: null,
      saltedPassword: null,
    }),
    expect: { denied: CLUSTER },
  },
  {
    api: 'WeirDeleteUser',
    label: 'WeirDeleteUser',
    grants: [cluster('ALTER')],
    ask: internalAsk('WeirDeleteUser', { username: 'someone', mechanism: null }),
    expect: { denied: CLUSTER },
  },
  {
    api: 'WeirVerifyCredentials',
    label: 'WeirVerifyCredentials',
    grants: [cluster('ALTER')],
    ask: internalAsk('WeirVerifyCredentials', { username: 'nobody', password: 'wrong', remoteAddress: null }),
    expect: { denied: CLUSTER },
  },
  {
    api: 'DescribeTransactions',
    label: 'DescribeTransactions',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'DESCRIBE')],
    ask: internalAsk('DescribeTransactions', { transactionalIds: ['tx'] }),
    expect: { denied: TXN },
  },
  {
    api: 'ListTransactions',
    label: 'ListTransactions',
    grants: [grant('TRANSACTIONAL_ID', 'tx', 'DESCRIBE')],
    ask: internalAsk('ListTransactions', { stateFilters: [], producerIdFilters: [] }),
    expect: {
      shows: (response) =>
        (response as { transactionStates: { transactionalId: string }[] }).transactionStates.some(
          (row) => row.transactionalId === 'tx',
        ),
    },
  },
  {
    api: 'DescribeProducers',
    label: 'DescribeProducers',
    grants: [grant('TOPIC', 'data', 'READ')],
    ask: internalAsk('DescribeProducers', { topics: [{ name: 'data', partitionIndexes: [0] }] }),
    expect: { denied: TOPIC },
  },
];

/** Served without authorization: they come before it (or are it). */
const UNAUTHORIZED_APIS = new Set(['ApiVersions', 'SaslHandshake', 'SaslAuthenticate']);

describe('authorization matrix (secure profile: allowEveryoneIfNoAclFound false)', () => {
  let sasl: RunningBroker;
  let plaintext: RunningBroker;
  const clients = new Map<PrincipalKind, Client>();

  beforeAll(async () => {
    sasl = await startBroker(secureSaslConfig());
    plaintext = await startBroker(securePlaintextConfig());
    await seedWorld(sasl.broker);
    await seedWorld(plaintext.broker);
    clients.set('anonymous', clientAs(plaintext, 'anonymous'));
    for (const kind of ['no-acl', 'granted', 'super'] as const) clients.set(kind, clientAs(sasl, kind));
  }, 60_000);

  afterAll(async () => {
    await Promise.all([...clients.values()].map((client) => client.close()));
    await sasl?.dispose();
    await plaintext?.dispose();
  });

  it('has a row for every API either listener serves', () => {
    const served = [...clientHandlers(), ...internalHandlers()].map((handler) => handler.api.name);
    const covered = new Set(ROWS.map((row) => row.api));
    expect(served.filter((name) => !UNAUTHORIZED_APIS.has(name) && !covered.has(name))).toEqual([]);
  });

  const ask = (row: Row, kind: PrincipalKind) => {
    const running = kind === 'anonymous' ? plaintext : sasl;
    return row.ask({ client: clients.get(kind)!, broker: running.broker, principal: PRINCIPAL_OF[kind] });
  };

  describe.each(ROWS)('$label', (row) => {
    it.each(['anonymous', 'no-acl'] as const)('%s is denied and changes nothing', async (kind) => {
      const broker = (kind === 'anonymous' ? plaintext : sasl).broker;
      const before = worldSnapshot(broker);
      const response = await ask(row, kind);
      if ('denied' in row.expect) {
        const codes = errorCodesIn(response).filter((code) => code !== ErrorCode.NONE);
        expect(codes.length).toBeGreaterThan(0);
        expect(new Set(codes)).toEqual(new Set([row.expect.denied]));
      } else {
        expect(row.expect.shows(response)).toBe(false);
      }
      expect(worldSnapshot(broker)).toBe(before);
    });

    it('granted is allowed with the needed ACLs', async () => {
      await sasl.broker.commands.acls.createAcls(row.grants.map((binding) => ({ binding })));
      try {
        const response = await ask(row, 'granted');
        expect(errorCodesIn(response).filter((code) => AUTHORIZATION_FAILURES.has(code))).toEqual([]);
        if ('shows' in row.expect) expect(row.expect.shows(response)).toBe(true);
      } finally {
        await sasl.broker.commands.acls.deleteAcls(row.grants);
      }
    });

    it('super is allowed', async () => {
      const response = await ask(row, 'super');
      expect(errorCodesIn(response).filter((code) => AUTHORIZATION_FAILURES.has(code))).toEqual([]);
      if ('shows' in row.expect) expect(row.expect.shows(response)).toBe(true);
    });
  });
});
