import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import {
  commitOne,
  groupOn,
  joinRequest,
  settle,
  subscription,
  TEST_GROUP_CONFIG,
  track,
  unledGroupCoordinator,
} from '../../test/group-fixtures';
import type { GroupCoordinator } from './group-coordinator';
import type { CoordinatorRecord } from './offsets-records';

const DELAY_MS = TEST_GROUP_CONFIG.initialRebalanceDelayMs;

type Fixture = ReturnType<typeof unledGroupCoordinator>;

/** Gains `partition` and lets its replay finish. */
async function lead(fx: Fixture, partition: number, leaderEpoch = 0): Promise<void> {
  const loaded = fx.coordinator.onBecomeLeader(partition, leaderEpoch);
  await settle();
  fx.source.release(partition);
  await loaded;
}

function committed(coordinator: GroupCoordinator, groupId: string): number {
  return coordinator.fetchOffsets(groupId, [{ name: 't0', partitionIndexes: [0] }]).topics[0]!.partitions[0]!
    .committedOffset;
}

/** A Stable group with one member, as written after its rebalance. */
function stableGroupRecord(groupId: string, nowMs: number): CoordinatorRecord {
  return {
    kind: 'group',
    groupId,
    value: {
      protocolType: 'consumer',
      generationId: 1,
      protocolName: 'range',
      leaderId: 'member-1',
      stateTimestampMs: nowMs,
      members: [
        {
          memberId: 'member-1',
          groupInstanceId: null,
          clientId: 'client',
          clientHost: '127.0.0.1',
          rebalanceTimeoutMs: 20_000,
          sessionTimeoutMs: 10_000,
          subscription: subscription(['t0']),
          assignment: Buffer.alloc(0),
        },
      ],
    },
  };
}

function offsetRecord(groupId: string, offset: number, commitTimestampMs: number): CoordinatorRecord {
  return {
    kind: 'offset',
    groupId,
    topic: 't0',
    partition: 0,
    value: { offset, leaderEpoch: -1, metadata: null, commitTimestampMs, expireTimestampMs: -1 },
  };
}

/**
 * One request of every kind the gate covers, with the answer a served shard gives for a group that
 * does not exist (chosen so that none of them parks).
 */
const REQUESTS: readonly [
  string,
  (coordinator: GroupCoordinator, groupId: string) => Promise<number>,
  number,
][] = [
  [
    'JoinGroup',
    async (c, groupId) => (await c.join(joinRequest({ groupId, memberId: 'm' }))).errorCode,
    ErrorCode.UNKNOWN_MEMBER_ID,
  ],
  [
    'SyncGroup',
    async (c, groupId) =>
      (await c.sync({ groupId, generationId: 1, memberId: 'm', groupInstanceId: null, assignments: [] }))
        .errorCode,
    ErrorCode.UNKNOWN_MEMBER_ID,
  ],
  [
    'Heartbeat',
    async (c, groupId) => c.heartbeat({ groupId, generationId: 1, memberId: 'm', groupInstanceId: null }),
    ErrorCode.UNKNOWN_MEMBER_ID,
  ],
  [
    'LeaveGroup',
    async (c, groupId) => c.leave(groupId, [{ memberId: 'm', groupInstanceId: null }]).errorCode,
    ErrorCode.NONE,
  ],
  [
    'OffsetCommit',
    async (c, groupId) => (await commitOne(c, groupId, 1))[0]!.partitions[0]!.errorCode,
    ErrorCode.NONE,
  ],
  ['OffsetFetch', async (c, groupId) => c.fetchOffsets(groupId, null).errorCode, ErrorCode.NONE],
  [
    'OffsetDelete',
    async (c, groupId) => (await c.deleteOffsets(groupId, [{ name: 't0', partitions: [0] }])).errorCode,
    ErrorCode.GROUP_ID_NOT_FOUND,
  ],
  ['DescribeGroups', async (c, groupId) => c.describeGroup(groupId).errorCode, ErrorCode.NONE],
  ['DeleteGroups', async (c, groupId) => c.deleteGroup(groupId), ErrorCode.GROUP_ID_NOT_FOUND],
];

describe('group coordinator shards', () => {
  it.each(REQUESTS)(
    '%s: NOT_COORDINATOR unled, COORDINATOR_LOAD_IN_PROGRESS while loading, served, NOT_COORDINATOR after resign',
    async (_name, request, served) => {
      const fx = unledGroupCoordinator();
      const groupId = groupOn(fx.coordinator, 2);
      expect(await request(fx.coordinator, groupId)).toBe(ErrorCode.NOT_COORDINATOR);

      const loaded = track(fx.coordinator.onBecomeLeader(2, 0));
      await settle();
      expect(fx.source.heldCount(2)).toBe(1);
      expect(await request(fx.coordinator, groupId)).toBe(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
      expect(fx.coordinator.loadState()).toEqual({
        loaded: false,
        loadingPartitions: 1,
        failedPartitions: [],
      });
      expect(loaded.done).toBe(false);

      fx.source.release(2);
      await fx.coordinator.whenLoaded();
      await settle();
      expect(loaded.done).toBe(true);
      expect(await request(fx.coordinator, groupId)).toBe(served);
      // Another partition was never led.
      expect(await request(fx.coordinator, groupOn(fx.coordinator, 1))).toBe(ErrorCode.NOT_COORDINATOR);

      fx.coordinator.onResign(2);
      expect(await request(fx.coordinator, groupId)).toBe(ErrorCode.NOT_COORDINATOR);
      expect(fx.coordinator.loadState()).toEqual({
        loaded: true,
        loadingPartitions: 0,
        failedPartitions: [],
      });
    },
  );

  it('answers COORDINATOR_NOT_AVAILABLE for a failed load until a newer epoch loads the partition', async () => {
    const fx = unledGroupCoordinator();
    const groupId = groupOn(fx.coordinator, 0);
    fx.store.partitions[0]!.push(offsetRecord(groupId, 11, fx.scheduler.nowMs()));
    const failed = fx.coordinator.onBecomeLeader(0, 1);
    await settle();
    fx.source.fail(0, new Error('disk on fire'));
    await failed;
    expect(fx.coordinator.loadState()).toEqual({ loaded: true, loadingPartitions: 0, failedPartitions: [0] });
    expect(fx.coordinator.fetchOffsets(groupId, null).errorCode).toBe(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    expect(fx.logs).toContain('loading a __consumer_offsets partition failed');

    await lead(fx, 0, 2);
    expect(fx.coordinator.loadState().failedPartitions).toEqual([]);
    expect(committed(fx.coordinator, groupId)).toBe(11);
  });

  it('installs nothing from a load overtaken by onResign', async () => {
    const fx = unledGroupCoordinator();
    const groupId = groupOn(fx.coordinator, 1);
    fx.store.partitions[1]!.push(
      stableGroupRecord(groupId, fx.scheduler.nowMs()),
      offsetRecord(groupId, 5, fx.scheduler.nowMs()),
    );
    const loading = fx.coordinator.onBecomeLeader(1, 3);
    await settle();
    fx.coordinator.onResign(1);
    fx.source.release(1);
    await loading;

    expect(fx.coordinator.fetchOffsets(groupId, null).errorCode).toBe(ErrorCode.NOT_COORDINATOR);
    expect([...fx.coordinator.committedOffsets()]).toEqual([]);
    expect(fx.coordinator.snapshots()).toEqual([]);
    expect(fx.logs).toContain('dropped a replay that lost its partition while it ran');
    // An installed member would have a session timer, whose expiry rebalances and writes the group.
    fx.scheduler.advance(TEST_GROUP_CONFIG.maxSessionTimeoutMs);
    await settle();
    expect(fx.logs).not.toContain('member session expired');
    expect(fx.store.writes).toEqual([]);
    // The records were there: leading the partition again finds them.
    await lead(fx, 1, 4);
    expect(committed(fx.coordinator, groupId)).toBe(5);
    expect(fx.coordinator.snapshot(groupId)).toMatchObject({ state: 'Stable', generationId: 1 });
  });

  it('installs only the newest epoch when a newer onBecomeLeader overtakes a load', async () => {
    const fx = unledGroupCoordinator();
    const groupId = groupOn(fx.coordinator, 3);
    fx.store.partitions[3]!.push(offsetRecord(groupId, 5, fx.scheduler.nowMs()));
    const first = fx.coordinator.onBecomeLeader(3, 1);
    await settle();
    expect(fx.source.heldCount(3)).toBe(1);
    // Another leader wrote meanwhile; this broker is elected again with a newer epoch.
    fx.store.partitions[3]!.push(offsetRecord(groupId, 9, fx.scheduler.nowMs()));
    const second = fx.coordinator.onBecomeLeader(3, 2);

    fx.source.release(3);
    await first;
    await settle();
    // The first replay (which saw offset 5) was dropped; the second one is running.
    expect(fx.coordinator.fetchOffsets(groupId, null).errorCode).toBe(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS);
    expect(fx.source.heldCount(3)).toBe(1);
    fx.source.release(3);
    await second;

    expect(committed(fx.coordinator, groupId)).toBe(9);
    expect(fx.source.started).toEqual([
      { partition: 3, leaderEpoch: 1 },
      { partition: 3, leaderEpoch: 2 },
    ]);
    await commitOne(fx.coordinator, groupId, 10);
    expect(fx.store.writes.at(-1)).toEqual({ partition: 3, leaderEpoch: 2 });
  });

  it('ignores an older epoch, reloads nothing for the same epoch, and writes with the shard epoch', async () => {
    const fx = unledGroupCoordinator();
    const groupId = groupOn(fx.coordinator, 0);
    await lead(fx, 0, 5);
    await fx.coordinator.onBecomeLeader(0, 5);
    await fx.coordinator.onBecomeLeader(0, 3);
    expect(fx.source.started).toEqual([{ partition: 0, leaderEpoch: 5 }]);
    expect(fx.logs).toContain('ignored becoming leader with an older leader epoch');

    await commitOne(fx.coordinator, groupId, 1);
    expect(fx.store.writes).toEqual([{ partition: 0, leaderEpoch: 5 }]);
  });

  it('answers parked JoinGroup and SyncGroup with NOT_COORDINATOR on resign and stops the timers', async () => {
    const fx = unledGroupCoordinator();
    const partition = fx.coordinator.partitionOf('g');
    await lead(fx, partition);

    // A member parked in the initial rebalance delay.
    const parkedJoin = fx.coordinator.join(joinRequest({ groupId: 'g', clientId: 'early' }));
    fx.coordinator.onResign(partition);
    expect((await parkedJoin).errorCode).toBe(ErrorCode.NOT_COORDINATOR);

    await lead(fx, partition, 1);
    const joins = [
      fx.coordinator.join(joinRequest({ groupId: 'g', clientId: 'a' })),
      fx.coordinator.join(joinRequest({ groupId: 'g', clientId: 'b' })),
    ];
    // The initial delay grows by one delay for every round in which members arrived.
    const tracked = joins.map(track);
    for (let round = 0; round < 10 && !tracked.every((join) => join.done); round++) {
      fx.scheduler.advance(DELAY_MS);
      await settle();
    }
    const joined = await Promise.all(joins);
    const follower = joined.find((outcome) => outcome.memberId !== outcome.leader)!;
    // The follower waits for the leader's assignment, which never comes.
    const parkedSync = fx.coordinator.sync({
      groupId: 'g',
      generationId: follower.generationId,
      memberId: follower.memberId,
      groupInstanceId: null,
      assignments: [],
    });
    fx.coordinator.onResign(partition);
    expect((await parkedSync).errorCode).toBe(ErrorCode.NOT_COORDINATOR);

    const logsAtResign = fx.logs.length;
    fx.scheduler.advance(10 * TEST_GROUP_CONFIG.maxSessionTimeoutMs);
    await settle();
    expect(fx.logs.slice(logsAtResign)).not.toContain('member session expired');
    expect(fx.logs.slice(logsAtResign)).not.toContain('member did not sync in time');
  });

  it("waits for the group's shard to load before applying a transaction's offsets", async () => {
    const fx = unledGroupCoordinator();
    const groupId = groupOn(fx.coordinator, 1);
    const loading = fx.coordinator.onBecomeLeader(1, 0);
    const applied = track(
      fx.coordinator.applyTransactionalOffsets(groupId, { producerId: 1n, producerEpoch: 0 }, [
        { topic: 't0', partition: 0, offset: 42, leaderEpoch: -1, metadata: null },
      ]),
    );
    await settle();
    expect(applied.done).toBe(false);
    fx.source.release(1);
    await loading;
    await settle();
    expect(applied).toEqual({ done: true, value: ErrorCode.NONE });
    expect(committed(fx.coordinator, groupId)).toBe(42);
  });

  it('expires offsets of active shards only; a loading shard keeps its offsets until a later round', async () => {
    const fx = unledGroupCoordinator();
    const longAgoMs = fx.scheduler.nowMs() - TEST_GROUP_CONFIG.offsetsRetentionMs - 1;
    const active = groupOn(fx.coordinator, 0, 'active');
    const loading = groupOn(fx.coordinator, 1, 'loading');
    fx.store.partitions[0]!.push(offsetRecord(active, 1, longAgoMs));
    fx.store.partitions[1]!.push(offsetRecord(loading, 2, longAgoMs));
    await lead(fx, 0);
    const loaded = fx.coordinator.onBecomeLeader(1, 0);
    await settle();

    expect(await fx.coordinator.expireOffsets()).toEqual({ offsetsExpired: 1, groupsRemoved: 1 });
    fx.source.release(1);
    await loaded;
    expect(committed(fx.coordinator, active)).toBe(-1);
    expect(committed(fx.coordinator, loading)).toBe(2);
    expect(await fx.coordinator.expireOffsets()).toEqual({ offsetsExpired: 1, groupsRemoved: 1 });
    expect(committed(fx.coordinator, loading)).toBe(-1);
  });
});
