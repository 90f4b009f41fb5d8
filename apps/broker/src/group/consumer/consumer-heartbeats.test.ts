import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import {
  type CoordinatorFixture,
  joinRequest,
  loadedCoordinator,
  settle,
  TEST_GROUP_CONFIG,
  testTopicId,
} from '../../../test/group-fixtures';
import type { ConsumerHeartbeatOutcome, ConsumerHeartbeatRequest } from './consumer-heartbeat-request';

const T0 = testTopicId('t0');
const T1 = testTopicId('t1');

type Owned = Map<string, Set<number>>;

/**
 * A consumer-protocol member as a client runs it: it sends its epoch and what it owns, takes the
 * assignment it is given, and gives up at once every partition the assignment leaves out (what a
 * client's revocation callback does).
 */
class SimulatedMember {
  memberId = '';
  memberEpoch = 0;
  owned: Owned = new Map();
  last: ConsumerHeartbeatOutcome | undefined;

  constructor(
    private readonly fx: CoordinatorFixture,
    readonly topics: string[],
    private readonly options: {
      groupId?: string;
      instanceId?: string | null;
      serverAssignor?: string | null;
    } = {},
  ) {}

  request(overrides: Partial<ConsumerHeartbeatRequest> = {}): ConsumerHeartbeatRequest {
    return {
      groupId: this.options.groupId ?? 'g',
      memberId: this.memberId,
      memberEpoch: this.memberEpoch,
      instanceId: this.options.instanceId ?? null,
      rackId: null,
      rebalanceTimeoutMs: 30_000,
      subscribedTopicNames: this.topics,
      serverAssignor: this.options.serverAssignor ?? null,
      topicPartitions: [...this.owned].map(([topicId, partitions]) => ({
        topicId,
        partitions: [...partitions],
      })),
      clientId: 'sim',
      clientHost: '/127.0.0.1',
      ...overrides,
    };
  }

  async heartbeat(overrides: Partial<ConsumerHeartbeatRequest> = {}): Promise<ConsumerHeartbeatOutcome> {
    const outcome = await this.fx.coordinator.consumerGroupHeartbeat(this.request(overrides));
    this.last = outcome;
    if (outcome.errorCode !== ErrorCode.NONE) return outcome;
    if (outcome.memberId) this.memberId = outcome.memberId;
    this.memberEpoch = outcome.memberEpoch;
    if (outcome.assignment) {
      this.owned = new Map(
        outcome.assignment.topicPartitions.map(({ topicId, partitions }) => [topicId, new Set(partitions)]),
      );
    }
    return outcome;
  }

  get ownedCount(): number {
    let count = 0;
    for (const partitions of this.owned.values()) count += partitions.size;
    return count;
  }
}

/** Fails when two members believe they own the same partition. */
function expectDisjoint(members: SimulatedMember[]): void {
  const seen = new Map<string, string>();
  for (const member of members) {
    for (const [topicId, partitions] of member.owned) {
      for (const partition of partitions) {
        const key = `${topicId}-${partition}`;
        expect(seen.get(key), `${key} owned by ${seen.get(key)} and ${member.memberId}`).toBeUndefined();
        seen.set(key, member.memberId);
      }
    }
  }
}

/** Heartbeats every member in turn until the group is Stable, checking ownership after each. */
async function untilStable(
  fx: CoordinatorFixture,
  members: SimulatedMember[],
  groupId = 'g',
): Promise<number> {
  for (let round = 1; round <= 10; round++) {
    for (const member of members) {
      expect((await member.heartbeat()).errorCode).toBe(ErrorCode.NONE);
      expectDisjoint(members);
    }
    if (fx.coordinator.consumerGroupDescribe(groupId).groupState === 'Stable') return round;
  }
  throw new Error('the group did not become Stable in 10 rounds');
}

describe('consumer group protocol: joining and reconciliation', () => {
  it('gives the first member every partition at epoch 1', async () => {
    const fx = await loadedCoordinator();
    const a = new SimulatedMember(fx, ['t0', 't1']);
    const joined = await a.heartbeat();
    expect(joined).toMatchObject({ errorCode: 0, memberEpoch: 1, heartbeatIntervalMs: 500 });
    expect(a.memberId).not.toBe('');
    expect(a.ownedCount).toBe(8);
    expect(fx.coordinator.consumerGroupDescribe('g')).toMatchObject({
      groupState: 'Stable',
      groupEpoch: 1,
      assignmentEpoch: 1,
      assignorName: 'uniform',
    });
  });

  it('moves partitions to a second member only after the first revoked them', async () => {
    const fx = await loadedCoordinator();
    const a = new SimulatedMember(fx, ['t0', 't1']);
    const b = new SimulatedMember(fx, ['t0', 't1']);
    await a.heartbeat();
    // B joins at the new group epoch, but its target partitions are still A's: it gets none yet.
    expect(await b.heartbeat()).toMatchObject({ errorCode: 0, memberEpoch: 2 });
    expect(b.ownedCount).toBe(0);
    expect(fx.coordinator.consumerGroupDescribe('g')).toMatchObject({
      groupState: 'Reconciling',
      groupEpoch: 2,
    });
    // A is told to keep half; it stays at epoch 1 until it has revoked the rest.
    expect(
      await a.heartbeat({
        topicPartitions: [
          { topicId: T0, partitions: [0, 1, 2, 3] },
          { topicId: T1, partitions: [0, 1, 2, 3] },
        ],
      }),
    ).toMatchObject({
      memberEpoch: 1,
    });
    expect(a.ownedCount).toBe(4);
    expectDisjoint([a, b]);
    // B asks again before A confirmed: nothing is free yet.
    await b.heartbeat();
    expect(b.ownedCount).toBe(0);
    // A confirms the revocation and moves to epoch 2; then B gets what A released.
    expect(await a.heartbeat()).toMatchObject({ memberEpoch: 2 });
    await b.heartbeat();
    expect(b.ownedCount).toBe(4);
    expectDisjoint([a, b]);
    expect(fx.coordinator.consumerGroupDescribe('g')).toMatchObject({
      groupState: 'Stable',
      assignmentEpoch: 2,
    });
  });

  it('never lets two members own a partition while four join and settle', async () => {
    const fx = await loadedCoordinator();
    const members = Array.from({ length: 4 }, () => new SimulatedMember(fx, ['t0', 't1']));
    for (const member of members) {
      await member.heartbeat();
      expectDisjoint(members);
    }
    await untilStable(fx, members);
    expect(members.map((member) => member.ownedCount)).toEqual([2, 2, 2, 2]);
    const described = fx.coordinator.consumerGroupDescribe('g');
    for (const member of described.members) {
      expect(member.memberEpoch).toBe(described.assignmentEpoch);
      expect(member.assignment).toEqual(member.targetAssignment);
    }
  });

  it('hands a leaving member’s partitions to the others and bumps the group epoch', async () => {
    const fx = await loadedCoordinator();
    const a = new SimulatedMember(fx, ['t0', 't1']);
    const b = new SimulatedMember(fx, ['t0', 't1']);
    await a.heartbeat();
    await b.heartbeat();
    await untilStable(fx, [a, b]);
    const epochBefore = fx.coordinator.consumerGroupDescribe('g').groupEpoch;
    const left = await b.heartbeat({ memberEpoch: -1 });
    expect(left).toMatchObject({ errorCode: 0, memberEpoch: -1, memberId: b.memberId });
    expect(fx.coordinator.consumerGroupDescribe('g')).toMatchObject({
      groupState: 'Assigning',
      groupEpoch: epochBefore + 1,
    });
    b.owned = new Map();
    await a.heartbeat();
    expect(a.ownedCount).toBe(8);
    expect(fx.coordinator.consumerGroupDescribe('g').members.map((member) => member.memberId)).toEqual([
      a.memberId,
    ]);
    // The leave and the reassignment are in __consumer_offsets: tombstones for B, a target for A.
    const bRecords = fx.store.written.filter(
      (record) => 'memberId' in record && record.memberId === b.memberId,
    );
    expect(bRecords.slice(-3).map((record) => [record.kind, record.value])).toEqual([
      ['consumer-current-assignment', null],
      ['consumer-target-member', null],
      ['consumer-member', null],
    ]);
  });

  it('takes the range assignor when members ask for it', async () => {
    const fx = await loadedCoordinator();
    const a = new SimulatedMember(fx, ['t0'], { serverAssignor: 'range' });
    const b = new SimulatedMember(fx, ['t0'], { serverAssignor: 'range' });
    await a.heartbeat();
    await b.heartbeat();
    await untilStable(fx, [a, b]);
    const described = fx.coordinator.consumerGroupDescribe('g');
    expect(described.assignorName).toBe('range');
    const ranges = described.members.map((member) => member.assignment.topicPartitions[0]!.partitions).sort();
    expect(ranges).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });
});

describe('consumer group protocol: epochs and fencing', () => {
  it('fences a greater epoch and a smaller one that is not the previous, and accepts the previous', async () => {
    const fx = await loadedCoordinator();
    // A alone on t0 keeps its partitions while B and C join on t1: its epoch goes 1, 2, 3.
    const members = [
      new SimulatedMember(fx, ['t0']),
      new SimulatedMember(fx, ['t1']),
      new SimulatedMember(fx, ['t1']),
    ];
    for (const member of members) {
      await member.heartbeat();
      await members[0]!.heartbeat();
    }
    await untilStable(fx, members);
    const a = members[0]!;
    const epoch = a.memberEpoch;
    expect(epoch).toBe(3);
    expect((await a.heartbeat({ memberEpoch: epoch + 1 })).errorCode).toBe(ErrorCode.FENCED_MEMBER_EPOCH);
    expect((await a.heartbeat({ memberEpoch: 1 })).errorCode).toBe(ErrorCode.FENCED_MEMBER_EPOCH);
    // The previous epoch with a subset of the partitions: the bump's answer may have been lost.
    const previous = await a.heartbeat({ memberEpoch: 2, topicPartitions: [] });
    expect(previous).toMatchObject({ errorCode: 0, memberEpoch: epoch });
    // The previous epoch claiming partitions it does not have is fenced.
    const others = [...members[1]!.owned.get(T1)!];
    expect(
      (await a.heartbeat({ memberEpoch: 2, topicPartitions: [{ topicId: T1, partitions: others }] }))
        .errorCode,
    ).toBe(ErrorCode.FENCED_MEMBER_EPOCH);
  });

  it('answers UNKNOWN_MEMBER_ID for an unknown member and GROUP_ID_NOT_FOUND for an unknown group', async () => {
    const fx = await loadedCoordinator();
    const a = new SimulatedMember(fx, ['t0']);
    await a.heartbeat();
    expect((await a.heartbeat({ memberId: 'nobody', memberEpoch: 3 })).errorCode).toBe(
      ErrorCode.UNKNOWN_MEMBER_ID,
    );
    expect((await a.heartbeat({ groupId: 'other', memberEpoch: 3 })).errorCode).toBe(
      ErrorCode.GROUP_ID_NOT_FOUND,
    );
    expect(fx.coordinator.consumerGroupDescribe('other').errorCode).toBe(ErrorCode.GROUP_ID_NOT_FOUND);
  });

  it('checks requests as Kafka does: INVALID_REQUEST with its message, UNSUPPORTED_ASSIGNOR', async () => {
    const fx = await loadedCoordinator();
    const a = new SimulatedMember(fx, ['t0']);
    expect(await a.heartbeat({ rebalanceTimeoutMs: -1 })).toMatchObject({
      errorCode: ErrorCode.INVALID_REQUEST,
      errorMessage: 'RebalanceTimeoutMs must be provided in first request.',
    });
    expect((await a.heartbeat({ subscribedTopicNames: [] })).errorCode).toBe(ErrorCode.INVALID_REQUEST);
    expect((await a.heartbeat({ memberEpoch: -7 })).errorCode).toBe(ErrorCode.INVALID_REQUEST);
    expect((await a.heartbeat({ memberEpoch: 4, memberId: '' })).errorCode).toBe(ErrorCode.INVALID_REQUEST);
    expect((await a.heartbeat({ serverAssignor: 'sticky' })).errorCode).toBe(ErrorCode.UNSUPPORTED_ASSIGNOR);
    // Nothing of the refused joins stayed behind.
    expect(fx.coordinator.listGroups().groups).toEqual([]);
  });

  it('fences a member whose session expires and gives its partitions to the others', async () => {
    const fx = await loadedCoordinator();
    const a = new SimulatedMember(fx, ['t0']);
    const b = new SimulatedMember(fx, ['t0']);
    await a.heartbeat();
    await b.heartbeat();
    await untilStable(fx, [a, b]);
    // A keeps heartbeating; B goes silent past the session timeout.
    for (let elapsed = 0; elapsed < TEST_GROUP_CONFIG.consumerSessionTimeoutMs + 1000; elapsed += 1000) {
      fx.scheduler.advance(1000);
      await a.heartbeat();
      await settle();
    }
    expect(fx.coordinator.consumerGroupDescribe('g').members.map((member) => member.memberId)).toEqual([
      a.memberId,
    ]);
    expect(a.ownedCount).toBe(4);
    expect((await b.heartbeat()).errorCode).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
  });

  it('fences a member that does not revoke within its rebalance timeout', async () => {
    const fx = await loadedCoordinator();
    const a = new SimulatedMember(fx, ['t0']);
    const b = new SimulatedMember(fx, ['t0']);
    await a.heartbeat({ rebalanceTimeoutMs: 2000 });
    await b.heartbeat();
    // A is asked to revoke two partitions but keeps reporting all four.
    const allFour = [{ topicId: T0, partitions: [0, 1, 2, 3] }];
    await a.heartbeat({ rebalanceTimeoutMs: 2000, topicPartitions: allFour });
    expect(
      fx.coordinator.consumerGroupDescribe('g').members.find((m) => m.memberId === a.memberId)?.memberEpoch,
    ).toBe(1);
    fx.scheduler.advance(1000);
    await a.heartbeat({ rebalanceTimeoutMs: 2000, topicPartitions: allFour });
    fx.scheduler.advance(1500);
    await settle();
    expect(fx.coordinator.consumerGroupDescribe('g').members.map((member) => member.memberId)).toEqual([
      b.memberId,
    ]);
    await b.heartbeat();
    expect(b.ownedCount).toBe(4);
  });

  it('keeps a static member’s place while it is away with epoch -2 and hands it to its next incarnation', async () => {
    const fx = await loadedCoordinator();
    const a = new SimulatedMember(fx, ['t0'], { instanceId: 'i-a' });
    const b = new SimulatedMember(fx, ['t0'], { instanceId: 'i-b' });
    await a.heartbeat();
    await b.heartbeat();
    await untilStable(fx, [a, b]);
    const owned = [...a.owned.get(T0)!].sort();
    expect(await a.heartbeat({ memberEpoch: -2 })).toMatchObject({ errorCode: 0, memberEpoch: -2 });
    // Another process with the same instance id may not join while the old one is still in.
    const rival = new SimulatedMember(fx, ['t0'], { instanceId: 'i-b' });
    expect((await rival.heartbeat()).errorCode).toBe(ErrorCode.UNRELEASED_INSTANCE_ID);
    const restarted = new SimulatedMember(fx, ['t0'], { instanceId: 'i-a' });
    await restarted.heartbeat();
    expect(restarted.memberId).not.toBe(a.memberId);
    expect([...restarted.owned.get(T0)!].sort()).toEqual(owned);
    expectDisjoint([restarted, b]);
  });
});

describe('consumer group protocol: offsets, restarts and the classic protocol', () => {
  it('takes commits with the member epoch from OffsetCommit v9 only, STALE_MEMBER_EPOCH for an old epoch', async () => {
    const fx = await loadedCoordinator();
    const a = new SimulatedMember(fx, ['t0']);
    await a.heartbeat();
    const commit = (generationId: number, apiVersion: number, memberId = a.memberId) =>
      fx.coordinator.commit({
        groupId: 'g',
        generationId,
        memberId,
        groupInstanceId: null,
        retentionTimeMs: -1,
        apiVersion,
        topics: [
          {
            name: 't0',
            partitions: [
              { partitionIndex: 0, committedOffset: 5, committedLeaderEpoch: -1, committedMetadata: null },
            ],
          },
        ],
      });
    const errorOf = async (pending: ReturnType<typeof commit>) =>
      (await pending)[0]!.partitions[0]!.errorCode;
    expect(await errorOf(commit(a.memberEpoch, 9))).toBe(ErrorCode.NONE);
    expect(await errorOf(commit(a.memberEpoch, 8))).toBe(ErrorCode.UNSUPPORTED_VERSION);
    expect(await errorOf(commit(a.memberEpoch - 1, 9))).toBe(ErrorCode.STALE_MEMBER_EPOCH);
    expect(await errorOf(commit(a.memberEpoch + 1, 9))).toBe(ErrorCode.FENCED_MEMBER_EPOCH);
    // A simple commit (no member, epoch -1) only while the group has no members.
    expect(await errorOf(commit(-1, 9, ''))).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
    expect(
      fx.coordinator.fetchOffsets('g', [{ name: 't0', partitionIndexes: [0] }]).topics[0]!.partitions[0]!
        .committedOffset,
    ).toBe(5);
  });

  it('reloads epochs, members, assignments and offsets after a restart', async () => {
    const fx = await loadedCoordinator();
    const a = new SimulatedMember(fx, ['t0', 't1']);
    const b = new SimulatedMember(fx, ['t0', 't1']);
    await a.heartbeat();
    await b.heartbeat();
    await untilStable(fx, [a, b]);
    await fx.coordinator.commit({
      groupId: 'g',
      generationId: a.memberEpoch,
      memberId: a.memberId,
      groupInstanceId: null,
      retentionTimeMs: -1,
      apiVersion: 9,
      topics: [
        {
          name: 't1',
          partitions: [
            { partitionIndex: 2, committedOffset: 42, committedLeaderEpoch: 3, committedMetadata: 'm' },
          ],
        },
      ],
    });
    const before = fx.coordinator.consumerGroupDescribe('g');
    fx.coordinator.shutdown();
    const restarted = await loadedCoordinator({}, { store: fx.store, scheduler: fx.scheduler });
    expect(restarted.coordinator.consumerGroupDescribe('g')).toEqual(before);
    expect(
      restarted.coordinator.fetchOffsets('g', [{ name: 't1', partitionIndexes: [2] }]).topics[0]!
        .partitions[0],
    ).toMatchObject({ committedOffset: 42, committedLeaderEpoch: 3, metadata: 'm' });
    // The members carry on with their epochs.
    const again = new SimulatedMember(restarted, ['t0', 't1']);
    Object.assign(again, { memberId: a.memberId, memberEpoch: a.memberEpoch, owned: a.owned });
    expect(await again.heartbeat()).toMatchObject({ errorCode: 0, memberEpoch: a.memberEpoch });
  });

  it('refuses a consumer-protocol join to a non-empty classic group with GROUP_ID_NOT_FOUND', async () => {
    const fx = await loadedCoordinator({ initialRebalanceDelayMs: 0 });
    const joined = fx.coordinator.join(joinRequest({ groupId: 'classic' }));
    fx.scheduler.advance(1);
    await settle();
    expect((await joined).errorCode).toBe(ErrorCode.NONE);
    const member = new SimulatedMember(fx, ['t0'], { groupId: 'classic' });
    expect(await member.heartbeat()).toMatchObject({
      errorCode: ErrorCode.GROUP_ID_NOT_FOUND,
      errorMessage: 'Group classic is not a consumer group.',
    });
  });

  it('refuses a classic JoinGroup to a non-empty consumer group with INCONSISTENT_GROUP_PROTOCOL', async () => {
    const fx = await loadedCoordinator();
    await new SimulatedMember(fx, ['t0']).heartbeat();
    expect((await fx.coordinator.join(joinRequest({ groupId: 'g' }))).errorCode).toBe(
      ErrorCode.INCONSISTENT_GROUP_PROTOCOL,
    );
    expect(fx.coordinator.describeGroup('g').state).toBe('Dead');
    expect(fx.coordinator.listGroups().groups).toEqual([
      { groupId: 'g', protocolType: 'consumer', state: 'Stable' },
    ]);
  });

  it('switches an empty group between protocols, keeping its committed offsets', async () => {
    const fx = await loadedCoordinator();
    await fx.coordinator.commit({
      groupId: 'g',
      generationId: -1,
      memberId: '',
      groupInstanceId: null,
      retentionTimeMs: -1,
      apiVersion: 7,
      topics: [
        {
          name: 't0',
          partitions: [
            { partitionIndex: 1, committedOffset: 9, committedLeaderEpoch: -1, committedMetadata: null },
          ],
        },
      ],
    });
    const a = new SimulatedMember(fx, ['t0']);
    expect((await a.heartbeat()).errorCode).toBe(ErrorCode.NONE);
    expect(fx.store.written.some((record) => record.kind === 'group' && record.value === null)).toBe(true);
    await a.heartbeat({ memberEpoch: -1 });
    expect(fx.coordinator.consumerGroupDescribe('g').groupState).toBe('Empty');
    // Empty again: a classic member may take the group back.
    const classic = fx.coordinator.join(joinRequest({ groupId: 'g' }));
    fx.scheduler.advance(TEST_GROUP_CONFIG.initialRebalanceDelayMs);
    await settle();
    expect((await classic).errorCode).toBe(ErrorCode.NONE);
    expect(fx.coordinator.consumerGroupDescribe('g').errorCode).toBe(ErrorCode.GROUP_ID_NOT_FOUND);
    expect(
      fx.coordinator.fetchOffsets('g', [{ name: 't0', partitionIndexes: [1] }]).topics[0]!.partitions[0]!
        .committedOffset,
    ).toBe(9);
    // And after a restart the group is classic, with its offsets.
    fx.coordinator.shutdown();
    const restarted = await loadedCoordinator({}, { store: fx.store, scheduler: fx.scheduler });
    expect(restarted.coordinator.consumerGroupDescribe('g').errorCode).toBe(ErrorCode.GROUP_ID_NOT_FOUND);
    expect(
      restarted.coordinator.fetchOffsets('g', [{ name: 't0', partitionIndexes: [1] }]).topics[0]!
        .partitions[0]!.committedOffset,
    ).toBe(9);
  });

  it('rolls a heartbeat back when its records cannot be written', async () => {
    const fx = await loadedCoordinator();
    const a = new SimulatedMember(fx, ['t0']);
    await a.heartbeat();
    fx.store.failWith = new Error('disk full');
    const b = new SimulatedMember(fx, ['t0']);
    expect((await b.heartbeat()).errorCode).not.toBe(ErrorCode.NONE);
    fx.store.failWith = undefined;
    const described = fx.coordinator.consumerGroupDescribe('g');
    expect(described).toMatchObject({ groupEpoch: 1, groupState: 'Stable' });
    expect(described.members).toHaveLength(1);
  });
});
