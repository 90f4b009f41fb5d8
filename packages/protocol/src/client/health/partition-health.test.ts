import { describe, expect, it } from 'vitest';
import { judgePartition } from './partition-health';

/* How one partition's states and reasons read, from its metadata and its leader's report. */

const live = new Set([1, 2, 3]);

describe('judgePartition', () => {
  it('finds nothing wrong with a full ISR led by the preferred replica', () => {
    const row = judgePartition(
      't',
      { partition: 0, leaderId: 1, replicaNodes: [1, 2, 3], isrNodes: [1, 2, 3] },
      2,
      live,
      undefined,
    );
    expect(row.states).toEqual([]);
    expect(row.reasons).toEqual([]);
  });

  it('says how far a lagging follower is behind when its leader reports it', () => {
    const row = judgePartition(
      't',
      { partition: 1, leaderId: 1, replicaNodes: [1, 2, 3], isrNodes: [1, 3] },
      2,
      live,
      {
        topic: 't',
        partition: 1,
        isrChangedAtMs: 1_000,
        leaderChangedAtMs: 500,
        followers: [{ brokerId: 2, lagRecords: 12_400n, lagMs: 31_200 }],
      },
    );
    expect(row.states).toEqual(['at-min-isr', 'under-replicated']);
    expect(row.reasons).toContain('broker 2 is not in the ISR: 12,400 records / 31 s behind');
    expect(row.laggingFollowers).toEqual([
      {
        brokerId: 2,
        lagRecords: '12400',
        lagMs: 31_200,
        registered: true,
        reason: 'broker 2 is not in the ISR: 12,400 records / 31 s behind',
      },
    ]);
    expect(row.isrChangedAtMs).toBe(1_000);
  });

  it('names a follower whose session ended, and an ISR under min.insync.replicas', () => {
    const row = judgePartition(
      't',
      { partition: 2, leaderId: 2, replicaNodes: [3, 2, 1], isrNodes: [2] },
      2,
      new Set([1, 2]),
      undefined,
    );
    expect(row.states).toEqual(['under-min-isr', 'under-replicated', 'non-preferred-leader']);
    expect(row.reasons[0]).toBe('ISR 1 < min.insync.replicas 2: acks=all writes are refused');
    expect(row.reasons).toContain("broker 3's session ended");
    expect(row.reasons).toContain('broker 1 is not in the ISR');
    expect(row.reasons.at(-1)).toBe("led by broker 2, not the preferred broker 3 (broker 3's session ended)");
  });

  it('says whose sessions ended for a partition without a leader', () => {
    const row = judgePartition(
      't',
      { partition: 4, leaderId: -1, replicaNodes: [3], isrNodes: [3] },
      1,
      new Set([1]),
      undefined,
    );
    expect(row.reasons).toEqual(["no leader: the session of every replica's broker (3) ended"]);
  });

  it('marks a partition without a leader offline and only offline', () => {
    const row = judgePartition(
      't',
      { partition: 3, leaderId: -1, replicaNodes: [3], isrNodes: [3] },
      1,
      live,
      undefined,
    );
    expect(row.states).toEqual(['offline']);
    expect(row.reasons).toEqual(['no leader elected from ISR [3]']);
  });

  it('says a preferred election would move the leader back when the preferred replica is in the ISR', () => {
    const row = judgePartition(
      't',
      { partition: 5, leaderId: 2, replicaNodes: [1, 2, 3], isrNodes: [1, 2, 3] },
      2,
      live,
      undefined,
    );
    expect(row.states).toEqual(['non-preferred-leader']);
    expect(row.reasons).toEqual([
      'led by broker 2, not the preferred broker 1 (in the ISR: a preferred election moves it back)',
    ]);
  });

  it('does not call a single-replica partition at min ISR, since no replica is missing', () => {
    const row = judgePartition(
      't',
      { partition: 6, leaderId: 1, replicaNodes: [1], isrNodes: [1] },
      1,
      live,
      undefined,
    );
    expect(row.states).toEqual([]);
  });

  it('names each broker whose session ended when no leader was elected from the ISR', () => {
    const row = judgePartition(
      't',
      { partition: 7, leaderId: -1, replicaNodes: [1, 2], isrNodes: [2] },
      1,
      new Set([1]),
      undefined,
    );
    expect(row.reasons).toEqual(["no leader elected from ISR [2]; broker 2's session ended"]);
    expect(row.laggingFollowers.map((follower) => follower.brokerId)).toEqual([1]);
  });
});
