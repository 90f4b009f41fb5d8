import { ErrorCode, WeirError } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import {
  assignment,
  type CoordinatorFixture,
  joinRequest,
  loadedCoordinator,
  settle,
  subscription,
  TEST_GROUP_CONFIG,
  track,
} from '../../test/group-fixtures';
import type { CommitRequest } from './group-offsets';

const DELAY_MS = TEST_GROUP_CONFIG.initialRebalanceDelayMs;

function commit(
  fx: CoordinatorFixture,
  offsets: Record<string, number>,
  member: { memberId: string; generationId: number } = { memberId: '', generationId: -1 },
  extra: Partial<CommitRequest> = {},
) {
  const byTopic = new Map<string, { partitionIndex: number; committedOffset: number }[]>();
  for (const [key, offset] of Object.entries(offsets)) {
    const [topic, partition] = key.split(':') as [string, string];
    byTopic.set(topic, [
      ...(byTopic.get(topic) ?? []),
      { partitionIndex: Number(partition), committedOffset: offset },
    ]);
  }
  return fx.coordinator.commit({
    groupId: 'g',
    generationId: member.generationId,
    memberId: member.memberId,
    groupInstanceId: null,
    retentionTimeMs: -1,
    apiVersion: 7,
    topics: [...byTopic].map(([name, partitions]) => ({
      name,
      partitions: partitions.map((partition) => ({
        ...partition,
        committedLeaderEpoch: -1,
        committedMetadata: 'm',
      })),
    })),
    ...extra,
  });
}

function errorsOf(result: Awaited<ReturnType<typeof commit>>): number[] {
  return result.flatMap((topic) => topic.partitions.map((partition) => partition.errorCode));
}

function committed(fx: CoordinatorFixture, topic: string, partition: number): number {
  return fx.coordinator.fetchOffsets('g', [{ name: topic, partitionIndexes: [partition] }]).topics[0]!
    .partitions[0]!.committedOffset;
}

/** One member, Stable, subscribed to t0. */
async function singleMemberGroup(fx: CoordinatorFixture) {
  const join = fx.coordinator.join(joinRequest({ clientId: 'solo' }));
  fx.scheduler.advance(DELAY_MS);
  const joined = await join;
  await fx.coordinator.sync({
    groupId: 'g',
    generationId: joined.generationId,
    memberId: joined.memberId,
    groupInstanceId: null,
    assignments: [{ memberId: joined.memberId, assignment: assignment({ t0: [0, 1, 2, 3] }) }],
  });
  return { memberId: joined.memberId, generationId: joined.generationId };
}

describe('OffsetCommit', () => {
  it('accepts a simple commit only while the group is empty', async () => {
    const fx = await loadedCoordinator();
    expect(errorsOf(await commit(fx, { 't0:0': 5 }))).toEqual([0]);
    expect(committed(fx, 't0', 0)).toBe(5);
    await singleMemberGroup(fx);
    expect(errorsOf(await commit(fx, { 't0:0': 9 }))).toEqual([ErrorCode.UNKNOWN_MEMBER_ID]);
    expect(committed(fx, 't0', 0)).toBe(5);
  });

  it('checks the member and the generation, and refuses unknown partitions one by one', async () => {
    const fx = await loadedCoordinator();
    const member = await singleMemberGroup(fx);
    expect(errorsOf(await commit(fx, { 't0:1': 10, 'nope:0': 1, 't1:7': 1 }, member))).toEqual([
      0,
      ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
      ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    ]);
    const stale = { memberId: member.memberId, generationId: member.generationId - 1 };
    expect(errorsOf(await commit(fx, { 't0:1': 11 }, stale))).toEqual([ErrorCode.ILLEGAL_GENERATION]);
    expect(errorsOf(await commit(fx, { 't0:1': 11 }, { memberId: 'x', generationId: 1 }))).toEqual([
      ErrorCode.UNKNOWN_MEMBER_ID,
    ]);
    expect(committed(fx, 't0', 1)).toBe(10);
    const tooLarge = await fx.coordinator.commit({
      ...commitBase('g'),
      ...member,
      topics: [
        {
          name: 't0',
          partitions: [
            {
              partitionIndex: 2,
              committedOffset: 1,
              committedLeaderEpoch: -1,
              committedMetadata: 'x'.repeat(4097),
            },
          ],
        },
      ],
    });
    expect(errorsOf(tooLarge)).toEqual([ErrorCode.OFFSET_METADATA_TOO_LARGE]);
    // An unknown group: a member commit is from a generation that no longer exists.
    expect(
      errorsOf(await commit(fx, { 't0:0': 1 }, { memberId: 'm', generationId: 3 }, { groupId: 'other' })),
    ).toEqual([ErrorCode.ILLEGAL_GENERATION]);
  });

  it('accepts commits during PreparingRebalance and refuses them during CompletingRebalance', async () => {
    const fx = await loadedCoordinator();
    const member = await singleMemberGroup(fx);
    const newcomer = track(fx.coordinator.join(joinRequest({ clientId: 'late' })));
    // PreparingRebalance: eager consumers commit in their revoke callback.
    expect(errorsOf(await commit(fx, { 't0:0': 3 }, member))).toEqual([0]);
    const rejoin = fx.coordinator.join(joinRequest({ memberId: member.memberId }));
    await rejoin;
    await settle();
    expect(newcomer.done).toBe(true);
    const next = { memberId: member.memberId, generationId: member.generationId + 1 };
    expect(errorsOf(await commit(fx, { 't0:0': 4 }, next))).toEqual([ErrorCode.REBALANCE_IN_PROGRESS]);
    expect(committed(fx, 't0', 0)).toBe(3);
  });

  it('writes only changes, durably, and keeps metadata and leader epoch', async () => {
    const fx = await loadedCoordinator();
    await commit(fx, { 't0:0': 5, 't0:1': 6 });
    const writes = fx.store.written.length;
    await commit(fx, { 't0:0': 5, 't0:1': 6 });
    expect(fx.store.written.length).toBe(writes);
    await commit(fx, { 't0:0': 5, 't0:1': 7 });
    expect(fx.store.written.length).toBe(writes + 1);
    await fx.coordinator.commit({
      ...commitBase('g'),
      topics: [
        {
          name: 't0',
          partitions: [
            { partitionIndex: 0, committedOffset: 5, committedLeaderEpoch: 4, committedMetadata: null },
          ],
        },
      ],
    });
    expect(
      fx.coordinator.fetchOffsets('g', [{ name: 't0', partitionIndexes: [0, 1, 3] }]).topics[0]!.partitions,
    ).toEqual([
      { partitionIndex: 0, committedOffset: 5, committedLeaderEpoch: 4, metadata: '', errorCode: 0 },
      { partitionIndex: 1, committedOffset: 7, committedLeaderEpoch: -1, metadata: 'm', errorCode: 0 },
      { partitionIndex: 3, committedOffset: -1, committedLeaderEpoch: -1, metadata: '', errorCode: 0 },
    ]);
  });

  it('reports a failed write and changes nothing', async () => {
    const fx = await loadedCoordinator();
    await commit(fx, { 't0:0': 5 });
    fx.store.failWith = new WeirError(ErrorCode.KAFKA_STORAGE_ERROR);
    expect(errorsOf(await commit(fx, { 't0:0': 6 }))).toEqual([ErrorCode.NOT_COORDINATOR]);
    expect(committed(fx, 't0', 0)).toBe(5);
  });
});

function commitBase(groupId: string): CommitRequest {
  return {
    groupId,
    generationId: -1,
    memberId: '',
    groupInstanceId: null,
    retentionTimeMs: -1,
    apiVersion: 7,
    topics: [],
  };
}

describe('OffsetFetch', () => {
  it('returns every committed partition for a null topic list, and -1 for unknown groups', async () => {
    const fx = await loadedCoordinator();
    await commit(fx, { 't0:0': 1, 't1:2': 2 });
    expect(fx.coordinator.fetchOffsets('g', null).topics).toEqual([
      { name: 't0', partitions: [expect.objectContaining({ partitionIndex: 0, committedOffset: 1 })] },
      { name: 't1', partitions: [expect.objectContaining({ partitionIndex: 2, committedOffset: 2 })] },
    ]);
    expect(fx.coordinator.fetchOffsets('unknown', null)).toEqual({ errorCode: 0, topics: [] });
    expect(
      fx.coordinator.fetchOffsets('unknown', [{ name: 'x', partitionIndexes: [0] }]).topics[0]!.partitions[0],
    ).toEqual({
      partitionIndex: 0,
      committedOffset: -1,
      committedLeaderEpoch: -1,
      metadata: '',
      errorCode: 0,
    });
  });
});

describe('restart', () => {
  it('rebuilds offsets and groups from the log; members come back Stable and expire if silent', async () => {
    const before = await loadedCoordinator();
    const member = await singleMemberGroup(before);
    await commit(before, { 't0:0': 42 }, member);
    await commit(before, { 't0:1': 7 }, member);
    before.coordinator.shutdown();

    const after = await loadedCoordinator({}, { store: before.store, scheduler: before.scheduler });
    expect(committed(after, 't0', 0)).toBe(42);
    expect(committed(after, 't0', 1)).toBe(7);
    const described = after.coordinator.describeGroup('g');
    expect(described).toMatchObject({ state: 'Stable', protocolType: 'consumer', protocolData: 'range' });
    expect(described.members[0]).toMatchObject({ memberId: member.memberId, clientId: 'solo' });
    expect(described.members[0]!.assignment).toEqual(assignment({ t0: [0, 1, 2, 3] }));
    expect(after.coordinator.heartbeat({ groupId: 'g', ...member, groupInstanceId: null })).toBe(0);
    // The member never comes back: its fresh session runs out and the group empties.
    after.scheduler.advance(10_000);
    await settle();
    expect(after.coordinator.describeGroup('g').state).toBe('Empty');
    expect(committed(after, 't0', 0)).toBe(42);
  });
});

describe('retention', () => {
  it('expires the offsets of an empty group and then the group itself', async () => {
    const fx = await loadedCoordinator({
      offsetsRetentionMs: 120_000,
      offsetsRetentionCheckIntervalMs: 30_000,
    });
    const member = await singleMemberGroup(fx);
    await commit(fx, { 't0:0': 1 }, member);
    fx.coordinator.leave('g', [{ memberId: member.memberId, groupInstanceId: null }]);
    await settle();
    fx.scheduler.advance(90_000);
    await settle();
    expect(committed(fx, 't0', 0)).toBe(1);
    fx.scheduler.advance(60_000);
    await settle();
    expect(committed(fx, 't0', 0)).toBe(-1);
    fx.scheduler.advance(30_000);
    await settle();
    expect(fx.coordinator.listGroups().groups).toEqual([]);
    expect(fx.store.written.slice(-2)).toEqual([
      { kind: 'offset', groupId: 'g', topic: 't0', partition: 0, value: null },
      { kind: 'group', groupId: 'g', value: null },
    ]);
  });

  it('keeps the offsets of a live group for topics it subscribes to', async () => {
    const fx = await loadedCoordinator({
      offsetsRetentionMs: 120_000,
      offsetsRetentionCheckIntervalMs: 30_000,
    });
    const member = await singleMemberGroup(fx);
    await commit(fx, { 't0:0': 1, 't1:0': 1 }, member);
    for (let elapsed = 0; elapsed < 180_000; elapsed += 5_000) {
      fx.scheduler.advance(5_000);
      fx.coordinator.heartbeat({ groupId: 'g', ...member, groupInstanceId: null });
      await settle();
    }
    expect(committed(fx, 't0', 0)).toBe(1);
    expect(committed(fx, 't1', 0)).toBe(-1);
  });
});

describe('group administration', () => {
  it('deletes only empty groups, writing tombstones; unknown groups are GROUP_ID_NOT_FOUND', async () => {
    const fx = await loadedCoordinator();
    const member = await singleMemberGroup(fx);
    await commit(fx, { 't0:0': 1 }, member);
    expect(await fx.coordinator.deleteGroup('g')).toBe(ErrorCode.NON_EMPTY_GROUP);
    expect(await fx.coordinator.deleteGroup('missing')).toBe(ErrorCode.GROUP_ID_NOT_FOUND);
    fx.coordinator.leave('g', [{ memberId: member.memberId, groupInstanceId: null }]);
    await settle();
    expect(await fx.coordinator.deleteGroup('g')).toBe(0);
    expect(committed(fx, 't0', 0)).toBe(-1);
    expect(fx.coordinator.describeGroup('g')).toMatchObject({ errorCode: 0, state: 'Dead', members: [] });
    // The deletion survives a restart.
    const after = await loadedCoordinator({}, { store: fx.store, scheduler: fx.scheduler });
    expect(after.coordinator.listGroups().groups).toEqual([]);
  });

  it('deletes offsets of topics the group does not subscribe to', async () => {
    const fx = await loadedCoordinator();
    const member = await singleMemberGroup(fx);
    await commit(fx, { 't0:0': 1, 't1:0': 2 }, member);
    const result = await fx.coordinator.deleteOffsets('g', [
      { name: 't0', partitions: [0] },
      { name: 't1', partitions: [0] },
      { name: 'missing', partitions: [0] },
    ]);
    expect(result.errorCode).toBe(0);
    expect(result.topics.map((topic) => topic.partitions[0]!.errorCode)).toEqual([
      ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC,
      0,
      ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    ]);
    expect(committed(fx, 't0', 0)).toBe(1);
    expect(committed(fx, 't1', 0)).toBe(-1);
    expect((await fx.coordinator.deleteOffsets('missing', [])).errorCode).toBe(ErrorCode.GROUP_ID_NOT_FOUND);
  });

  it('describes members with metadata and assignment only once Stable', async () => {
    const fx = await loadedCoordinator();
    const join = fx.coordinator.join(joinRequest({ clientId: 'd' }));
    expect(fx.coordinator.describeGroup('g')).toMatchObject({
      state: 'PreparingRebalance',
      protocolData: '',
    });
    fx.scheduler.advance(DELAY_MS);
    const joined = await join;
    await fx.coordinator.sync({
      groupId: 'g',
      generationId: 1,
      memberId: joined.memberId,
      groupInstanceId: null,
      assignments: [{ memberId: joined.memberId, assignment: assignment({ t0: [0] }) }],
    });
    expect(fx.coordinator.describeGroup('g')).toEqual({
      errorCode: 0,
      groupId: 'g',
      state: 'Stable',
      protocolType: 'consumer',
      protocolData: 'range',
      members: [
        {
          memberId: joined.memberId,
          groupInstanceId: null,
          clientId: 'd',
          clientHost: '127.0.0.1',
          metadata: subscription(['t0']),
          assignment: assignment({ t0: [0] }),
        },
      ],
    });
  });
});
