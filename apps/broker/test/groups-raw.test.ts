import {
  ApiVersions,
  DeleteGroups,
  DescribeGroups,
  ErrorCode,
  FindCoordinator,
  Heartbeat,
  JoinGroup,
  LeaveGroup,
  ListGroups,
  OffsetCommit,
  OffsetDelete,
  OffsetFetch,
  SyncGroup,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignment, describedConsumerGroup, pollUntil, subscription } from './group-fixtures';
import { RawClient } from './raw-client';

/** The wire-level details of the group APIs, version by version, with hand-built requests. */
describe('group APIs on the wire', () => {
  let running: RunningBroker;
  let client: RawClient;

  beforeAll(async () => {
    running = await startBroker({
      topics: { autoCreateEnable: false },
      groups: { initialRebalanceDelayMs: 0, minSessionTimeoutMs: 1000, offsetsTopicPartitions: 3 },
    });
    await running.broker.services.topics.createTopic({ name: 'wire', partitionCount: 2, configs: {} });
    client = await RawClient.connect(running.bootstrap);
  });
  afterAll(async () => {
    await client.close();
    await running.dispose();
  });

  /** A one-member group in Stable, joined with JoinGroup `version`. */
  async function soloGroup(groupId: string, version = 5) {
    const joined = await client.request(JoinGroup, version, {
      groupId,
      sessionTimeoutMs: 10_000,
      rebalanceTimeoutMs: 10_000,
      memberId: '',
      groupInstanceId: null,
      protocolType: 'consumer',
      protocols: [{ name: 'range', metadata: subscription(['wire']) }],
    });
    const memberId = joined.memberId;
    const join =
      joined.errorCode === ErrorCode.MEMBER_ID_REQUIRED
        ? await client.request(JoinGroup, version, {
            groupId,
            sessionTimeoutMs: 10_000,
            rebalanceTimeoutMs: 10_000,
            memberId,
            groupInstanceId: null,
            protocolType: 'consumer',
            protocols: [{ name: 'range', metadata: subscription(['wire']) }],
          })
        : joined;
    expect(join.errorCode).toBe(0);
    const synced = await client.request(SyncGroup, 3, {
      groupId,
      generationId: join.generationId,
      memberId: join.memberId,
      groupInstanceId: null,
      assignments: [{ memberId: join.memberId, assignment: assignment({ wire: [0, 1] }) }],
    });
    expect(synced).toEqual({ throttleTimeMs: 0, errorCode: 0, assignment: assignment({ wire: [0, 1] }) });
    return { memberId: join.memberId, generationId: join.generationId };
  }

  it('advertises the group APIs with the ranges both clients need', async () => {
    const { apiKeys } = await client.request(ApiVersions, 2, {
      clientSoftwareName: '',
      clientSoftwareVersion: '',
    });
    const range = (key: number) => apiKeys.find((entry) => entry.apiKey === key);
    // v8–9 are flexible, above what kafkajs (5) and librdkafka 2.0 (7) use; consumer-protocol members need v9.
    expect(range(8)).toMatchObject({ minVersion: 0, maxVersion: 9 });
    expect(range(9)).toMatchObject({ minVersion: 0, maxVersion: 5 });
    expect(range(10)).toMatchObject({ minVersion: 0, maxVersion: 2 });
    expect(range(11)).toMatchObject({ minVersion: 0, maxVersion: 5 });
    expect(range(12)).toMatchObject({ minVersion: 0, maxVersion: 3 });
    expect(range(13)).toMatchObject({ minVersion: 0, maxVersion: 3 });
    expect(range(14)).toMatchObject({ minVersion: 0, maxVersion: 3 });
    expect(range(15)).toMatchObject({ minVersion: 0, maxVersion: 4 });
    expect(range(16)).toMatchObject({ minVersion: 0, maxVersion: 2 });
    expect(range(42)).toMatchObject({ minVersion: 0, maxVersion: 1 });
    expect(range(47)).toMatchObject({ minVersion: 0, maxVersion: 0 });
    expect(range(68)).toMatchObject({ minVersion: 0, maxVersion: 0 });
    expect(range(69)).toMatchObject({ minVersion: 0, maxVersion: 0 });
  });

  it('FindCoordinator names this broker for groups and transactional ids', async () => {
    const self = { nodeId: 0, host: '127.0.0.1', port: running.port };
    expect(await client.request(FindCoordinator, 0, { key: 'g', keyType: 0 })).toMatchObject({
      errorCode: 0,
      ...self,
    });
    expect(await client.request(FindCoordinator, 1, { key: 'txn', keyType: 1 })).toEqual({
      throttleTimeMs: 0,
      errorCode: 0,
      errorMessage: null,
      ...self,
    });
    const refused = await client.request(FindCoordinator, 2, { key: 'x', keyType: 7 });
    expect(refused).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, nodeId: -1, host: '', port: -1 });
    expect(running.broker.readiness().find((check) => check.name === 'coordinators')).toEqual({
      name: 'coordinators',
      ok: true,
      detail: 'groups loaded',
    });
  });

  it('JoinGroup v0 uses the session timeout as the rebalance timeout and needs no member id round trip', async () => {
    const member = await soloGroup('v0-group', 0);
    expect(member.generationId).toBe(1);
    const invalid = await client.request(JoinGroup, 0, {
      groupId: '',
      sessionTimeoutMs: 10_000,
      rebalanceTimeoutMs: -1,
      memberId: '',
      groupInstanceId: null,
      protocolType: 'consumer',
      protocols: [{ name: 'range', metadata: Buffer.alloc(0) }],
    });
    expect(invalid.errorCode).toBe(ErrorCode.INVALID_GROUP_ID);
    const tooShort = await client.request(JoinGroup, 5, {
      groupId: 'v0-group',
      sessionTimeoutMs: 10,
      rebalanceTimeoutMs: 10,
      memberId: '',
      groupInstanceId: null,
      protocolType: 'consumer',
      protocols: [{ name: 'range', metadata: Buffer.alloc(0) }],
    });
    expect(tooShort.errorCode).toBe(ErrorCode.INVALID_SESSION_TIMEOUT);
  });

  it('LeaveGroup v0 answers one member with one code; v3 answers a batch member by member', async () => {
    const first = await soloGroup('leave-v0');
    expect(
      await client.request(LeaveGroup, 0, { groupId: 'leave-v0', memberId: 'nobody', members: [] }),
    ).toMatchObject({
      errorCode: ErrorCode.UNKNOWN_MEMBER_ID,
    });
    expect(
      await client.request(LeaveGroup, 1, { groupId: 'leave-v0', memberId: first.memberId, members: [] }),
    ).toEqual({
      throttleTimeMs: 0,
      errorCode: 0,
      members: [],
    });
    const second = await soloGroup('leave-v3');
    const batch = await client.request(LeaveGroup, 3, {
      groupId: 'leave-v3',
      memberId: '',
      members: [
        { memberId: second.memberId, groupInstanceId: null },
        { memberId: 'ghost', groupInstanceId: null },
      ],
    });
    expect(batch).toEqual({
      throttleTimeMs: 0,
      errorCode: 0,
      members: [
        { memberId: second.memberId, groupInstanceId: null, errorCode: 0 },
        { memberId: 'ghost', groupInstanceId: null, errorCode: ErrorCode.UNKNOWN_MEMBER_ID },
      ],
    });
    expect(
      await client.request(Heartbeat, 3, {
        groupId: 'leave-v3',
        generationId: second.generationId,
        memberId: second.memberId,
        groupInstanceId: null,
      }),
    ).toMatchObject({ errorCode: ErrorCode.UNKNOWN_MEMBER_ID });
  });

  it('OffsetCommit v2 simple commits and OffsetFetch v1 and v5 (null = every committed partition)', async () => {
    const commit = await client.request(OffsetCommit, 2, {
      groupId: 'simple',
      generationIdOrMemberEpoch: -1,
      memberId: '',
      groupInstanceId: null,
      retentionTimeMs: 60_000n,
      topics: [
        {
          name: 'wire',
          partitions: [
            {
              partitionIndex: 1,
              committedOffset: 3n,
              committedLeaderEpoch: -1,
              commitTimestampMs: -1n,
              committedMetadata: null,
            },
            {
              partitionIndex: 9,
              committedOffset: 3n,
              committedLeaderEpoch: -1,
              commitTimestampMs: -1n,
              committedMetadata: null,
            },
          ],
        },
      ],
    });
    expect(commit.topics[0]!.partitions.map((partition) => partition.errorCode)).toEqual([
      0,
      ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    ]);
    const v1 = await client.request(OffsetFetch, 1, {
      groupId: 'simple',
      topics: [{ name: 'wire', partitionIndexes: [0, 1] }],
    });
    expect(v1.topics[0]!.partitions).toEqual([
      { partitionIndex: 0, committedOffset: -1n, committedLeaderEpoch: -1, metadata: '', errorCode: 0 },
      { partitionIndex: 1, committedOffset: 3n, committedLeaderEpoch: -1, metadata: '', errorCode: 0 },
    ]);
    const all = await client.request(OffsetFetch, 5, { groupId: 'simple', topics: null });
    expect(all).toEqual({
      throttleTimeMs: 0,
      errorCode: 0,
      topics: [
        {
          name: 'wire',
          partitions: [
            { partitionIndex: 1, committedOffset: 3n, committedLeaderEpoch: -1, metadata: '', errorCode: 0 },
          ],
        },
      ],
    });
  });

  it('DescribeGroups, ListGroups, OffsetDelete and DeleteGroups follow Kafka', async () => {
    const member = await soloGroup('admin-group');
    await client.request(OffsetCommit, 7, {
      groupId: 'admin-group',
      generationIdOrMemberEpoch: member.generationId,
      memberId: member.memberId,
      groupInstanceId: null,
      retentionTimeMs: -1n,
      topics: [
        {
          name: 'wire',
          partitions: [
            {
              partitionIndex: 0,
              committedOffset: 1n,
              committedLeaderEpoch: 3,
              commitTimestampMs: -1n,
              committedMetadata: 'x',
            },
          ],
        },
      ],
    });
    const described = await client.request(DescribeGroups, 4, {
      groups: ['admin-group', 'nobody-knows'],
      includeAuthorizedOperations: true,
    });
    expect(described.groups[0]).toMatchObject({
      errorCode: 0,
      groupState: 'Stable',
      protocolType: 'consumer',
      protocolData: 'range',
      members: [
        {
          memberId: member.memberId,
          groupInstanceId: null,
          clientId: 'weir-raw-client',
          clientHost: '/127.0.0.1',
          memberMetadata: subscription(['wire']),
          memberAssignment: assignment({ wire: [0, 1] }),
        },
      ],
    });
    expect(described.groups[0]!.authorizedOperations).toBeGreaterThan(0);
    expect(described.groups[1]).toMatchObject({
      errorCode: 0,
      groupId: 'nobody-knows',
      groupState: 'Dead',
      members: [],
    });
    const v0 = await client.request(DescribeGroups, 0, {
      groups: ['admin-group'],
      includeAuthorizedOperations: false,
    });
    expect(v0.groups[0]!.groupState).toBe('Stable');

    const listed = await client.request(ListGroups, 0, {});
    expect(listed.errorCode).toBe(0);
    expect(listed.groups).toContainEqual({ groupId: 'admin-group', protocolType: 'consumer' });

    const subscribed = await client.request(OffsetDelete, 0, {
      groupId: 'admin-group',
      topics: [{ name: 'wire', partitions: [{ partitionIndex: 0 }] }],
    });
    expect(subscribed).toEqual({
      errorCode: 0,
      throttleTimeMs: 0,
      topics: [
        { name: 'wire', partitions: [{ partitionIndex: 0, errorCode: ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC }] },
      ],
    });
    expect((await client.request(OffsetDelete, 0, { groupId: 'unknown', topics: [] })).errorCode).toBe(
      ErrorCode.GROUP_ID_NOT_FOUND,
    );

    const refused = await client.request(DeleteGroups, 1, { groupsNames: ['admin-group', 'unknown'] });
    expect(refused.results).toEqual([
      { groupId: 'admin-group', errorCode: ErrorCode.NON_EMPTY_GROUP },
      { groupId: 'unknown', errorCode: ErrorCode.GROUP_ID_NOT_FOUND },
    ]);
    await client.request(LeaveGroup, 3, {
      groupId: 'admin-group',
      memberId: '',
      members: [{ memberId: member.memberId, groupInstanceId: null }],
    });
    // Empty now: nobody subscribes, so the offset may go; then the group itself.
    const deletedOffset = await client.request(OffsetDelete, 0, {
      groupId: 'admin-group',
      topics: [{ name: 'wire', partitions: [{ partitionIndex: 0 }] }],
    });
    expect(deletedOffset.topics[0]!.partitions[0]!.errorCode).toBe(0);
    expect((await client.request(DeleteGroups, 0, { groupsNames: ['admin-group'] })).results).toEqual([
      { groupId: 'admin-group', errorCode: 0 },
    ]);
    expect((await client.request(ListGroups, 2, {})).groups.map((group) => group.groupId)).not.toContain(
      'admin-group',
    );
  });
});

describe('group state across a restart', () => {
  it('brings a group with members back Stable with its assignment, then expires the silent member', async () => {
    const overrides = {
      topics: { autoCreateEnable: false },
      groups: { initialRebalanceDelayMs: 0, minSessionTimeoutMs: 1000, offsetsTopicPartitions: 3 },
    };
    const first = await startBroker(overrides);
    let second: RunningBroker | undefined;
    try {
      await first.broker.services.topics.createTopic({ name: 'kept', partitionCount: 1, configs: {} });
      const client = await RawClient.connect(first.bootstrap);
      const joinBody = {
        groupId: 'kept-group',
        sessionTimeoutMs: 1500,
        rebalanceTimeoutMs: 5000,
        memberId: 'ignored',
        groupInstanceId: null,
        protocolType: 'consumer',
        protocols: [{ name: 'range', metadata: subscription(['kept']) }],
      };
      const joined = await client.request(JoinGroup, 3, { ...joinBody, memberId: '' });
      await client.request(SyncGroup, 3, {
        groupId: 'kept-group',
        generationId: joined.generationId,
        memberId: joined.memberId,
        groupInstanceId: null,
        assignments: [{ memberId: joined.memberId, assignment: assignment({ kept: [0] }) }],
      });
      await client.close();
      await first.stop();

      second = await startBroker(overrides, first.dataDir);
      expect(second.broker.services.groups.snapshot('kept-group')?.generationId).toBe(1);
      expect(describedConsumerGroup(second.broker, 'kept-group')).toMatchObject({
        state: 'Stable',
        protocol: 'range',
        members: [
          {
            memberId: joined.memberId,
            subscription: { topics: ['kept'] },
            assignment: { partitions: [{ topic: 'kept', partitions: [0] }] },
          },
        ],
      });
      // Nobody heartbeats after the restart: the member's fresh session runs out.
      await pollUntil(
        () => second!.broker.services.groups.describeGroup('kept-group').state === 'Empty',
        'the group to empty',
      );
    } finally {
      await second?.stop();
      await first.dispose();
    }
  }, 20_000);
});
