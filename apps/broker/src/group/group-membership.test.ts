import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import {
  assignment,
  type CoordinatorFixture,
  joinRequest,
  leadEveryPartition,
  loadedCoordinator,
  ManualScheduler,
  MemoryGroupStore,
  settle,
  subscription,
  TEST_GROUP_CONFIG,
  track,
} from '../../test/group-fixtures';
import { GroupCoordinator } from './group-coordinator';
import type { JoinRequest } from './group-membership';

const DELAY_MS = TEST_GROUP_CONFIG.initialRebalanceDelayMs;

/**
 * Waits out the initial rebalance delay, which grows by one delay for every round in which new
 * members arrived, until every join is answered.
 */
async function completeJoins<T>(fx: CoordinatorFixture, joins: Promise<T>[]): Promise<T[]> {
  const tracked = joins.map(track);
  for (let round = 0; round < 10 && !tracked.every((join) => join.done); round++) {
    fx.scheduler.advance(DELAY_MS);
    await settle();
  }
  return Promise.all(joins);
}

/** Joins `count` new members at once and completes the rebalance (join and the leader's sync). */
async function stableGroup(fx: CoordinatorFixture, count: number, overrides: Partial<JoinRequest> = {}) {
  const joins = Array.from({ length: count }, (_, index) =>
    fx.coordinator.join(joinRequest({ clientId: `c${index}`, ...overrides })),
  );
  const outcomes = await completeJoins(fx, joins);
  const generationId = outcomes[0]!.generationId;
  const leader = outcomes.find((outcome) => outcome.memberId === outcome.leader)!;
  const syncs = outcomes.map((outcome) =>
    fx.coordinator.sync({
      groupId: overrides.groupId ?? 'g',
      generationId,
      memberId: outcome.memberId,
      groupInstanceId: overrides.groupInstanceId ?? null,
      assignments:
        outcome === leader
          ? outcomes.map((member, index) => ({
              memberId: member.memberId,
              assignment: assignment({ t0: [index] }),
            }))
          : [],
    }),
  );
  const synced = await Promise.all(syncs);
  return { outcomes, synced, generationId, leader, members: outcomes.map((outcome) => outcome.memberId) };
}

function heartbeat(
  fx: CoordinatorFixture,
  memberId: string,
  generationId: number,
  groupInstanceId: string | null = null,
) {
  return fx.coordinator.heartbeat({ groupId: 'g', memberId, generationId, groupInstanceId });
}

describe('JoinGroup', () => {
  it('answers NOT_COORDINATOR before it leads the partition and serves it once loaded', async () => {
    const store = new MemoryGroupStore();
    const coordinator = new GroupCoordinator({
      config: TEST_GROUP_CONFIG,
      store,
      scheduler: new ManualScheduler(),
      logger: { info() {}, warn() {} },
      catalog: { hasPartition: () => true, topic: () => undefined, topicById: () => undefined },
      source: store,
    });
    expect((await coordinator.join(joinRequest())).errorCode).toBe(ErrorCode.NOT_COORDINATOR);
    expect(
      coordinator.heartbeat({ groupId: 'g', memberId: 'm', generationId: 1, groupInstanceId: null }),
    ).toBe(ErrorCode.NOT_COORDINATOR);
    await leadEveryPartition(coordinator, store.partitionCount);
    expect(coordinator.loadState()).toEqual({ loaded: true, loadingPartitions: 0, failedPartitions: [] });
    expect(
      coordinator.heartbeat({ groupId: 'g', memberId: 'm', generationId: 1, groupInstanceId: null }),
    ).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
  });

  it('serves the partitions that loaded and answers COORDINATOR_NOT_AVAILABLE for one that failed', async () => {
    const store = new MemoryGroupStore(2);
    const coordinator = new GroupCoordinator({
      config: TEST_GROUP_CONFIG,
      store,
      scheduler: new ManualScheduler(),
      logger: { info() {}, warn() {} },
      catalog: { hasPartition: () => true, topic: () => undefined, topicById: () => undefined },
      source: {
        partitionCount: 2,
        replay: async (partition, leaderEpoch, onRecord) => {
          if (partition === 1) throw new Error('disk on fire');
          return store.replay(partition, leaderEpoch, onRecord);
        },
      },
    });
    await leadEveryPartition(coordinator, 2);
    expect(coordinator.loadState()).toEqual({ loaded: true, loadingPartitions: 0, failedPartitions: [1] });
    // "a" hashes to partition 1 of 2, "b" to partition 0.
    expect(coordinator.partitionOf('a')).toBe(1);
    expect((await coordinator.join(joinRequest({ groupId: 'a' }))).errorCode).toBe(
      ErrorCode.COORDINATOR_NOT_AVAILABLE,
    );
    expect(coordinator.partitionOf('b')).toBe(0);
    expect(coordinator.describeGroup('b')).toMatchObject({ errorCode: 0, state: 'Dead' });
  });

  it('validates the group id and the session timeout', async () => {
    const fx = await loadedCoordinator();
    expect((await fx.coordinator.join(joinRequest({ groupId: '' }))).errorCode).toBe(
      ErrorCode.INVALID_GROUP_ID,
    );
    expect((await fx.coordinator.join(joinRequest({ sessionTimeoutMs: 999 }))).errorCode).toBe(
      ErrorCode.INVALID_SESSION_TIMEOUT,
    );
    expect((await fx.coordinator.join(joinRequest({ sessionTimeoutMs: 60_001 }))).errorCode).toBe(
      ErrorCode.INVALID_SESSION_TIMEOUT,
    );
    expect((await fx.coordinator.join(joinRequest({ memberId: 'ghost' }))).errorCode).toBe(
      ErrorCode.UNKNOWN_MEMBER_ID,
    );
    // Failed joins leave no group behind.
    expect(fx.coordinator.listGroups().groups).toEqual([]);
  });

  it('hands out a member id with MEMBER_ID_REQUIRED from v4 and waits for the member to come back', async () => {
    const fx = await loadedCoordinator();
    const first = await fx.coordinator.join(joinRequest({ requireKnownMemberId: true, clientId: 'app' }));
    expect(first.errorCode).toBe(ErrorCode.MEMBER_ID_REQUIRED);
    expect(first.memberId).toMatch(/^app-[0-9a-f-]{36}$/);
    const rejoin = track(
      fx.coordinator.join(
        joinRequest({ requireKnownMemberId: true, clientId: 'app', memberId: first.memberId }),
      ),
    );
    fx.scheduler.advance(DELAY_MS - 1);
    await settle();
    expect(rejoin.done).toBe(false);
    fx.scheduler.advance(1);
    await settle();
    expect(rejoin.value).toMatchObject({
      errorCode: 0,
      generationId: 1,
      protocolName: 'range',
      leader: first.memberId,
      memberId: first.memberId,
    });
    expect(rejoin.value!.members.map((member) => member.memberId)).toEqual([first.memberId]);
  });

  it('a handed-out id that never comes back expires after the session timeout', async () => {
    const fx = await loadedCoordinator();
    const { generationId, members } = await stableGroup(fx, 1);
    const pending = await fx.coordinator.join(joinRequest({ requireKnownMemberId: true }));
    expect(pending.errorCode).toBe(ErrorCode.MEMBER_ID_REQUIRED);
    // The known member is told to rejoin only once the new one is really in; the pending id holds
    // the group in its current generation, and expiring it changes nothing.
    for (let elapsed = 0; elapsed < 15_000; elapsed += 5_000) {
      fx.scheduler.advance(5_000);
      expect(heartbeat(fx, members[0]!, generationId)).toBe(ErrorCode.NONE);
    }
    expect(fx.coordinator.describeGroup('g').members).toHaveLength(1);
  });

  it('extends the initial delay while members keep arriving, then answers everyone at once', async () => {
    const fx = await loadedCoordinator();
    const a = track(fx.coordinator.join(joinRequest({ clientId: 'a' })));
    fx.scheduler.advance(2000);
    const b = track(fx.coordinator.join(joinRequest({ clientId: 'b' })));
    fx.scheduler.advance(1000);
    await settle();
    expect(a.done || b.done).toBe(false);
    fx.scheduler.advance(DELAY_MS);
    await settle();
    expect(a.value!.generationId).toBe(1);
    expect(b.value!.generationId).toBe(1);
    expect(a.value!.leader).toBe(a.value!.memberId);
    // Only the leader gets the member list.
    expect(a.value!.members).toHaveLength(2);
    expect(b.value!.members).toEqual([]);
  });

  it('chooses the protocol by vote among the protocols every member supports', async () => {
    const fx = await loadedCoordinator();
    const offer = (...names: string[]) => names.map((name) => ({ name, metadata: subscription(['t0']) }));
    const joins = [
      fx.coordinator.join(joinRequest({ protocols: offer('range', 'roundrobin', 'sticky') })),
      fx.coordinator.join(joinRequest({ protocols: offer('roundrobin', 'range') })),
      fx.coordinator.join(joinRequest({ protocols: offer('roundrobin', 'range', 'sticky') })),
    ];
    const outcomes = await completeJoins(fx, joins);
    expect(outcomes.map((outcome) => outcome.protocolName)).toEqual([
      'roundrobin',
      'roundrobin',
      'roundrobin',
    ]);
  });

  it('refuses a member whose protocol type or protocols do not fit (INCONSISTENT_GROUP_PROTOCOL)', async () => {
    const fx = await loadedCoordinator();
    await stableGroup(fx, 1, { protocols: [{ name: 'RoundRobinAssigner', metadata: subscription(['t0']) }] });
    const librdkafka = [
      { name: 'range', metadata: subscription(['t0']) },
      { name: 'roundrobin', metadata: subscription(['t0']) },
    ];
    expect((await fx.coordinator.join(joinRequest({ protocols: librdkafka }))).errorCode).toBe(
      ErrorCode.INCONSISTENT_GROUP_PROTOCOL,
    );
    expect((await fx.coordinator.join(joinRequest({ protocolType: 'connect' }))).errorCode).toBe(
      ErrorCode.INCONSISTENT_GROUP_PROTOCOL,
    );
    expect((await fx.coordinator.join(joinRequest({ protocols: [] }))).errorCode).toBe(
      ErrorCode.INCONSISTENT_GROUP_PROTOCOL,
    );
    expect(fx.coordinator.describeGroup('g').members).toHaveLength(1);
  });
});

describe('SyncGroup and Heartbeat', () => {
  it('holds followers until the leader syncs; members the leader left out get empty bytes', async () => {
    const fx = await loadedCoordinator();
    const joins = [0, 1, 2].map((index) => fx.coordinator.join(joinRequest({ clientId: `c${index}` })));
    const [leader, follower, unassigned] = await completeJoins(fx, joins);
    const sync = (memberId: string, assignments: { memberId: string; assignment: Buffer }[] = []) =>
      track(
        fx.coordinator.sync({ groupId: 'g', generationId: 1, memberId, groupInstanceId: null, assignments }),
      );
    const followerSync = sync(follower!.memberId);
    const unassignedSync = sync(unassigned!.memberId);
    await settle();
    expect(followerSync.done).toBe(false);
    // The group waits in CompletingRebalance: heartbeats are fine, commits must wait.
    expect(heartbeat(fx, follower!.memberId, 1)).toBe(ErrorCode.NONE);
    const leaderSync = sync(leader!.memberId, [
      { memberId: leader!.memberId, assignment: assignment({ t0: [0, 1] }) },
      { memberId: follower!.memberId, assignment: assignment({ t0: [2, 3] }) },
    ]);
    await settle();
    expect(leaderSync.value).toEqual({ errorCode: 0, assignment: assignment({ t0: [0, 1] }) });
    expect(followerSync.value).toEqual({ errorCode: 0, assignment: assignment({ t0: [2, 3] }) });
    expect(unassignedSync.value).toEqual({ errorCode: 0, assignment: Buffer.alloc(0) });
    expect(fx.coordinator.describeGroup('g').state).toBe('Stable');
    // The completed rebalance is stored with every member's assignment.
    const stored = fx.store.written.filter((record) => record.kind === 'group');
    expect(stored.at(-1)).toMatchObject({ value: { generationId: 1, protocolName: 'range' } });
  });

  it('answers ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID and REBALANCE_IN_PROGRESS by the rules', async () => {
    const fx = await loadedCoordinator();
    const { members, generationId } = await stableGroup(fx, 2);
    const sync = (memberId: string, generation: number) =>
      fx.coordinator.sync({
        groupId: 'g',
        generationId: generation,
        memberId,
        groupInstanceId: null,
        assignments: [],
      });
    expect((await sync(members[1]!, generationId + 1)).errorCode).toBe(ErrorCode.ILLEGAL_GENERATION);
    expect((await sync('nobody', generationId)).errorCode).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
    expect(heartbeat(fx, members[1]!, generationId - 1)).toBe(ErrorCode.ILLEGAL_GENERATION);
    expect(heartbeat(fx, 'nobody', generationId)).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
    // A Stable follower's late sync gets its stored assignment.
    expect((await sync(members[1]!, generationId)).assignment).toEqual(assignment({ t0: [1] }));
    // A new member starts a rebalance: PreparingRebalance answers 27 to heartbeats and syncs.
    void fx.coordinator.join(joinRequest());
    expect(heartbeat(fx, members[1]!, generationId)).toBe(ErrorCode.REBALANCE_IN_PROGRESS);
    expect((await sync(members[1]!, generationId)).errorCode).toBe(ErrorCode.REBALANCE_IN_PROGRESS);
  });

  it('tells members waiting for an assignment to rejoin when a rebalance starts meanwhile', async () => {
    const fx = await loadedCoordinator();
    const joins = [0, 1].map(() => fx.coordinator.join(joinRequest()));
    const [, follower] = await completeJoins(fx, joins);
    const waiting = track(
      fx.coordinator.sync({
        groupId: 'g',
        generationId: 1,
        memberId: follower!.memberId,
        groupInstanceId: null,
        assignments: [],
      }),
    );
    void fx.coordinator.join(joinRequest());
    await settle();
    expect(waiting.value).toEqual({
      errorCode: ErrorCode.REBALANCE_IN_PROGRESS,
      assignment: Buffer.alloc(0),
    });
  });
});

describe('timeouts', () => {
  it('expires a silent member after its session timeout and rebalances once', async () => {
    const fx = await loadedCoordinator();
    const { members, generationId } = await stableGroup(fx, 2);
    const rebalancesBefore = fx.logs.filter((line) => line === 'group rebalance started').length;
    for (let elapsed = 0; elapsed < 9_000; elapsed += 3_000) {
      fx.scheduler.advance(3_000);
      expect(heartbeat(fx, members[0]!, generationId)).toBe(ErrorCode.NONE);
    }
    // members[1] never heartbeated: its 10 s session ran out at 10 s.
    fx.scheduler.advance(1_000);
    expect(heartbeat(fx, members[0]!, generationId)).toBe(ErrorCode.REBALANCE_IN_PROGRESS);
    expect(heartbeat(fx, members[1]!, generationId)).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
    // The survivor is the only member, so its rejoin completes the rebalance at once.
    const rejoin = await fx.coordinator.join(joinRequest({ memberId: members[0]! }));
    expect(rejoin).toMatchObject({ errorCode: 0, generationId: generationId + 1, leader: members[0] });
    expect(fx.logs.filter((line) => line === 'group rebalance started')).toHaveLength(rebalancesBefore + 1);
  });

  it('drops members that do not rejoin within the rebalance timeout', async () => {
    const fx = await loadedCoordinator();
    const { members, generationId } = await stableGroup(fx, 2, { sessionTimeoutMs: 30_000 });
    const rejoin = track(
      fx.coordinator.join(joinRequest({ memberId: members[0]!, sessionTimeoutMs: 30_000 })),
    );
    fx.scheduler.advance(19_999);
    await settle();
    expect(rejoin.done).toBe(false);
    fx.scheduler.advance(1);
    await settle();
    expect(rejoin.value).toMatchObject({ errorCode: 0, generationId: generationId + 1 });
    expect(rejoin.value!.members.map((member) => member.memberId)).toEqual([members[0]]);
  });

  it('removes members that never send SyncGroup within the rebalance timeout', async () => {
    const fx = await loadedCoordinator();
    const joins = [0, 1].map(() => fx.coordinator.join(joinRequest()));
    const [leader, follower] = await completeJoins(fx, joins);
    const waiting = track(
      fx.coordinator.sync({
        groupId: 'g',
        generationId: 1,
        memberId: follower!.memberId,
        groupInstanceId: null,
        assignments: [],
      }),
    );
    fx.scheduler.advance(20_000);
    await settle();
    expect(waiting.value?.errorCode).toBe(ErrorCode.REBALANCE_IN_PROGRESS);
    expect(heartbeat(fx, leader!.memberId, 1)).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
  });
});

describe('LeaveGroup', () => {
  it('answers per member and rebalances the rest', async () => {
    const fx = await loadedCoordinator();
    const { members, generationId } = await stableGroup(fx, 3);
    const outcome = fx.coordinator.leave('g', [
      { memberId: members[0]!, groupInstanceId: null },
      { memberId: 'stranger', groupInstanceId: null },
      { memberId: members[2]!, groupInstanceId: null },
    ]);
    expect(outcome.errorCode).toBe(0);
    expect(outcome.members.map((member) => member.errorCode)).toEqual([0, ErrorCode.UNKNOWN_MEMBER_ID, 0]);
    expect(heartbeat(fx, members[1]!, generationId)).toBe(ErrorCode.REBALANCE_IN_PROGRESS);
    const rejoin = await fx.coordinator.join(joinRequest({ memberId: members[1]! }));
    expect(rejoin).toMatchObject({ generationId: generationId + 1, leader: members[1] });
    expect(
      fx.coordinator.leave('unknown-group', [{ memberId: 'x', groupInstanceId: null }]).members[0]!.errorCode,
    ).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
  });

  it('an empty group is written as such once its last member leaves', async () => {
    const fx = await loadedCoordinator();
    const { members } = await stableGroup(fx, 1);
    fx.coordinator.leave('g', [{ memberId: members[0]!, groupInstanceId: null }]);
    await settle();
    expect(fx.coordinator.describeGroup('g').state).toBe('Empty');
    expect(fx.store.written.at(-1)).toMatchObject({
      kind: 'group',
      value: { members: [], protocolType: 'consumer' },
    });
  });
});

describe('static membership', () => {
  it('a restarted static follower takes over its member without a rebalance and fences the old id', async () => {
    const fx = await loadedCoordinator();
    const leader = fx.coordinator.join(joinRequest({ groupInstanceId: 'leader-host' }));
    const follower = fx.coordinator.join(joinRequest({ groupInstanceId: 'follower-host' }));
    const [leaderJoin, followerJoin] = await completeJoins(fx, [leader, follower]);
    const sync = (
      memberId: string,
      instance: string,
      assignments: { memberId: string; assignment: Buffer }[] = [],
    ) =>
      fx.coordinator.sync({
        groupId: 'g',
        generationId: 1,
        memberId,
        groupInstanceId: instance,
        assignments,
      });
    const followerSync = sync(followerJoin!.memberId, 'follower-host');
    await sync(leaderJoin!.memberId, 'leader-host', [
      { memberId: followerJoin!.memberId, assignment: assignment({ t0: [3] }) },
    ]);
    await followerSync;

    const restarted = await fx.coordinator.join(
      joinRequest({ groupInstanceId: 'follower-host', requireKnownMemberId: true }),
    );
    expect(restarted.errorCode).toBe(0);
    expect(restarted.generationId).toBe(1);
    expect(restarted.memberId).not.toBe(followerJoin!.memberId);
    expect((await sync(restarted.memberId, 'follower-host')).assignment).toEqual(assignment({ t0: [3] }));
    expect(heartbeat(fx, followerJoin!.memberId, 1, 'follower-host')).toBe(ErrorCode.FENCED_INSTANCE_ID);
    expect(heartbeat(fx, leaderJoin!.memberId, 1, 'leader-host')).toBe(ErrorCode.NONE);
    expect(fx.coordinator.describeGroup('g').state).toBe('Stable');
  });
});
