import type { ClusterEvent } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { describeClusterEvent, reasonInWords, replicasChanged } from './cluster-event-words';
import { resolveEventRange } from './replication-events';

/*
 * The pure parts of the replication timeline's service: which time range a query reads, and how
 * events are put in words. The brokers' own answers are tested in test/replication-events-cluster.test.ts.
 */

const NOW = 1_800_000_000_000;

function event(fields: Partial<ClusterEvent> & Pick<ClusterEvent, 'kind'>): ClusterEvent {
  return { id: '1', atMs: NOW, topic: 'orders', partition: 0, ...fields };
}

describe('resolveEventRange', () => {
  it('reads the last 24 hours when the query names no range and no start', () => {
    expect(resolveEventRange({}, NOW)).toEqual({ sinceMs: NOW - 86_400_000, untilMs: NOW, range: '24h' });
  });

  it('reads a named range back from the given end', () => {
    expect(resolveEventRange({ range: '1h', untilMs: NOW - 5 }, NOW)).toEqual({
      sinceMs: NOW - 5 - 3_600_000,
      untilMs: NOW - 5,
      range: '1h',
    });
  });

  it('reads from an explicit start up to now, naming no range', () => {
    expect(resolveEventRange({ sinceMs: 42 }, NOW)).toEqual({ sinceMs: 42, untilMs: NOW, range: null });
  });

  it('never starts before the epoch', () => {
    expect(resolveEventRange({ range: '7d', untilMs: 1_000 }, NOW).sinceMs).toBe(0);
  });
});

describe('cluster events in words', () => {
  it('names the replicas that left or joined the ISR, and none for other kinds', () => {
    expect(replicasChanged(event({ kind: 'isr-shrink', previousIsr: [1, 2, 3], isr: [1] }))).toEqual([2, 3]);
    expect(replicasChanged(event({ kind: 'isr-expand', previousIsr: [1], isr: [1, 3] }))).toEqual([3]);
    expect(replicasChanged(event({ kind: 'leader-change', previousIsr: [1, 2], isr: [1] }))).toEqual([]);
  });

  it("says a failover's leader change with its epoch and why", () => {
    const failover = event({
      kind: 'leader-change',
      previousLeader: 2,
      leader: 3,
      leaderEpoch: 4,
      cause: 'leader-not-live',
    });
    expect(describeClusterEvent(failover)).toBe(
      "leader broker 2 → broker 3 (epoch 4): failover: the leader's session ended",
    );
  });

  it("leaves out an ISR change's detail, which only repeats the replicas", () => {
    const shrink = event({
      kind: 'isr-shrink',
      previousIsr: [1, 2, 3],
      isr: [1, 3],
      cause: 'follower-lagging',
      detail: 'removed 2',
    });
    expect(reasonInWords(shrink)).toBe('the follower fell behind the leader');
    expect(describeClusterEvent(shrink)).toBe(
      'broker 2 left the ISR, ISR [1, 2, 3] → [1, 3]: the follower fell behind the leader',
    );
  });

  it("keeps a session end's detail and shows an unknown cause as it is", () => {
    const ended = event({
      kind: 'broker-session-ended',
      topic: undefined,
      partition: undefined,
      brokerId: 3,
      detail: 'session expired',
    });
    expect(describeClusterEvent(ended)).toBe("broker 3's session ended: session expired");
    expect(reasonInWords(event({ kind: 'leader-change', leader: 1, cause: 'something-new' }))).toBe(
      'something-new',
    );
    expect(reasonInWords(event({ kind: 'reassignment-started' }))).toBeNull();
  });
});
