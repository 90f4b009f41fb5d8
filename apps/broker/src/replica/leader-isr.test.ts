import { describe, expect, it } from 'vitest';
import type { PartitionAssignment } from '../metadata/metadata-store';
import { LeaderIsr, type PartitionReplication } from './leader-isr';

const LEADER = 1;

/** A replication whose ISR changes stay being stored until `store()` lands them. */
function heldReplication(
  live: (brokerId: number) => boolean = () => true,
): PartitionReplication & { stored: PartitionAssignment[]; store(): void } {
  const pending: (() => void)[] = [];
  return {
    stored: [],
    nowMs: () => 0,
    replicaLagTimeMaxMs: 30_000,
    alterIsr(next) {
      return new Promise<void>((resolve) => {
        pending.push(() => {
          this.stored.push(next);
          resolve();
        });
      });
    },
    onAlterIsrFailed: () => {},
    onLogOffline: () => {},
    storageIdOf: () => undefined,
    isLive: live,
    store() {
      for (const land of pending.splice(0)) land();
    },
  };
}

function assignment(replicas: number[], isr: number[]): PartitionAssignment {
  return { topic: 't', partition: 0, replicas, leader: LEADER, leaderEpoch: 1, isr, version: 1 };
}

describe('the high watermark candidate of a partition leader', () => {
  it('is the leader log end when the leader is the whole ISR and no change is being stored', () => {
    const standalone = assignment([LEADER], [LEADER]);
    const leaderIsr = new LeaderIsr(LEADER, heldReplication());
    leaderIsr.applied(standalone, 'new', 0);
    expect(leaderIsr.highWatermarkCandidate(standalone.isr, 0)).toBe(0);
    expect(leaderIsr.highWatermarkCandidate(standalone.isr, 42)).toBe(42);
  });

  it('counts a follower joining the leader-only ISR while its expansion is being stored', () => {
    const shrunk = assignment([LEADER, 2], [LEADER]);
    const replication = heldReplication();
    const leaderIsr = new LeaderIsr(LEADER, replication);
    leaderIsr.applied(shrunk, 'new', 10);
    expect(leaderIsr.highWatermarkCandidate(shrunk.isr, 10)).toBe(10);
    // The follower caught up to the high watermark and the leadership's start: it joins.
    leaderIsr.recordFetch(2, 10, 12);
    leaderIsr.maybeExpand(shrunk, 2, 10, 1);
    // Until the expansion is stored, the maximal ISR holds the candidate at the follower's log end.
    expect(leaderIsr.highWatermarkCandidate(shrunk.isr, 12)).toBe(10);
    leaderIsr.recordFetch(2, 11, 12);
    expect(leaderIsr.highWatermarkCandidate(shrunk.isr, 12)).toBe(11);
    replication.store();
    expect(replication.stored.map((stored) => stored.isr)).toEqual([[LEADER, 2]]);
  });

  it('waits for an in-sync follower that has not fetched under this leadership', () => {
    const full = assignment([LEADER, 2, 3], [LEADER, 2, 3]);
    const leaderIsr = new LeaderIsr(LEADER, heldReplication());
    leaderIsr.applied(full, 'new', 5);
    leaderIsr.recordFetch(2, 5, 5);
    expect(leaderIsr.highWatermarkCandidate(full.isr, 5)).toBeUndefined();
    leaderIsr.recordFetch(3, 4, 5);
    expect(leaderIsr.highWatermarkCandidate(full.isr, 5)).toBe(4);
  });

  it('keeps a caught-up follower out of the ISR while it has no session', () => {
    const shrunk = assignment([LEADER, 2], [LEADER]);
    let registered = false;
    const replication = heldReplication((id) => id === LEADER || registered);
    const leaderIsr = new LeaderIsr(LEADER, replication);
    leaderIsr.applied(shrunk, 'new', 10);
    leaderIsr.recordFetch(2, 10, 10);
    leaderIsr.maybeExpand(shrunk, 2, 10, 1);
    replication.store();
    expect(replication.stored).toEqual([]);
    registered = true;
    leaderIsr.maybeExpand(shrunk, 2, 10, 1);
    replication.store();
    expect(replication.stored.map((stored) => stored.isr)).toEqual([[LEADER, 2]]);
  });
});
