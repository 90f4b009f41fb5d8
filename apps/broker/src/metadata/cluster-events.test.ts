import { describe, expect, it } from 'vitest';
import { assignmentEvents, type ClusterEvent, eventMatches, withChangeTimes } from './cluster-events';
import type { PartitionAssignment } from './metadata-store';

const base: PartitionAssignment = {
  topic: 'orders',
  partition: 2,
  replicas: [1, 2, 3],
  leader: 1,
  leaderEpoch: 4,
  isr: [1, 2, 3],
  version: 10,
};

describe('assignmentEvents', () => {
  it('derives a leader change with the new epoch, the previous leader and the cause', () => {
    const next = { ...base, leader: 2, leaderEpoch: 5, isr: [2, 3] };
    const events = assignmentEvents(base, next, 'leader-not-live', 1000);
    expect(events.map((event) => event.kind)).toEqual(['leader-change', 'isr-shrink']);
    expect(events[0]).toMatchObject({
      atMs: 1000,
      topic: 'orders',
      partition: 2,
      leader: 2,
      previousLeader: 1,
      leaderEpoch: 5,
      cause: 'leader-not-live',
    });
    expect(events[1]).toMatchObject({ isr: [2, 3], previousIsr: [1, 2, 3], cause: 'leader-not-live' });
  });

  it('calls a change to no leader a partition going offline', () => {
    const events = assignmentEvents(
      base,
      { ...base, leader: -1, leaderEpoch: 5, isr: [1] },
      'leader-not-live',
      1,
    );
    expect(events.map((event) => event.kind)).toEqual(['partition-offline', 'isr-shrink']);
    expect(events[0]).toMatchObject({ leader: -1, previousLeader: 1 });
  });

  it('derives an ISR expansion when members are added, and nothing for an unchanged assignment', () => {
    const shrunk = { ...base, isr: [1] };
    expect(assignmentEvents(shrunk, { ...shrunk, isr: [1, 3] }, 'follower-caught-up', 5)).toEqual([
      expect.objectContaining({
        kind: 'isr-expand',
        isr: [1, 3],
        previousIsr: [1],
        cause: 'follower-caught-up',
      }),
    ]);
    expect(assignmentEvents(base, { ...base }, undefined, 5)).toEqual([]);
  });

  it('derives both a shrink and an expansion when members are swapped', () => {
    const events = assignmentEvents(base, { ...base, isr: [1, 2, 4] }, undefined, 5);
    expect(events.map((event) => event.kind)).toEqual(['isr-shrink', 'isr-expand']);
  });

  it('derives a reassignment starting, completing and being cancelled from the adding replicas', () => {
    const moving = { ...base, replicas: [1, 2, 4, 3], addingReplicas: [4], removingReplicas: [3] };
    expect(assignmentEvents(base, moving, 'reassignment', 1).map((event) => event.kind)).toEqual([
      'reassignment-started',
    ]);
    const done = { ...base, replicas: [1, 2, 4], isr: [1, 2, 4] };
    expect(assignmentEvents(moving, done, 'reassignment', 2).map((event) => event.kind)).toEqual([
      'isr-shrink',
      'isr-expand',
      'reassignment-completed',
    ]);
    expect(assignmentEvents(moving, base, 'reassignment-cancelled', 3).map((event) => event.kind)).toEqual([
      'reassignment-cancelled',
    ]);
  });
});

describe('withChangeTimes', () => {
  it('stamps the ISR and leader change times only when they changed, keeping the earlier ones', () => {
    const stamped = withChangeTimes(
      base,
      { ...base, isr: [1, 2], isrChangedAtMs: 5, leaderChangedAtMs: 3 },
      9,
    );
    expect(stamped).toMatchObject({ isrChangedAtMs: 9, leaderChangedAtMs: 3 });
    const reordered = withChangeTimes(base, { ...base, isr: [3, 2, 1] }, 9);
    expect(reordered.isrChangedAtMs).toBeUndefined();
    expect(withChangeTimes(base, { ...base, leader: 2, leaderEpoch: 5 }, 7).leaderChangedAtMs).toBe(7);
  });
});

describe('eventMatches', () => {
  const event: ClusterEvent = {
    id: 'x',
    atMs: 100,
    kind: 'isr-shrink',
    topic: 'orders',
    partition: 2,
    leader: 1,
    isr: [1, 2],
    previousIsr: [1, 2, 3],
  };

  it('keeps only the kinds asked for, when asked', () => {
    expect(eventMatches(event, { limit: 10, kinds: ['isr-shrink', 'isr-expand'] })).toBe(true);
    expect(eventMatches(event, { limit: 10, kinds: ['broker-session-ended'] })).toBe(false);
    expect(eventMatches(event, { limit: 10 })).toBe(true);
  });

  it('matches a broker that left the ISR or leads, and not one that stayed a member', () => {
    expect(eventMatches(event, { brokerId: 3, limit: 10 })).toBe(true);
    expect(eventMatches(event, { brokerId: 1, limit: 10 })).toBe(true);
    expect(eventMatches(event, { brokerId: 2, limit: 10 })).toBe(false);
  });

  it('filters by time, topic and partition', () => {
    expect(eventMatches(event, { sinceMs: 101, limit: 10 })).toBe(false);
    expect(eventMatches(event, { untilMs: 99, limit: 10 })).toBe(false);
    expect(eventMatches(event, { sinceMs: 100, untilMs: 100, topic: 'orders', partition: 2, limit: 1 })).toBe(
      true,
    );
    expect(eventMatches(event, { topic: 'other', limit: 10 })).toBe(false);
    expect(eventMatches(event, { partition: 1, limit: 10 })).toBe(false);
  });
});
