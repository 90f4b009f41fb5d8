import { describe, expect, it } from 'vitest';
import type { PartitionAssignment } from '../metadata/metadata-store';
import { leaderDecision } from './leader-election';

const base: PartitionAssignment = {
  topic: 't',
  partition: 0,
  replicas: [2],
  leader: 2,
  leaderEpoch: 4,
  isr: [2],
  version: 17,
};
const clean = { minInsyncReplicas: 1, uncleanLeaderElectionEnable: false };
const strict = { minInsyncReplicas: 2, uncleanLeaderElectionEnable: false };
const three: PartitionAssignment = { ...base, replicas: [1, 2, 3], leader: 1, isr: [1, 2, 3] };

describe('leaderDecision', () => {
  it('leaves a partition whose leader and in-sync replicas are live alone', () => {
    expect(leaderDecision(base, () => true, clean)).toBeUndefined();
    expect(leaderDecision(three, () => true, strict)).toBeUndefined();
  });

  it('takes a partition offline with a new epoch when its leader is not live, keeping the version it read', () => {
    expect(leaderDecision(base, (id) => id !== 2, clean)?.next).toEqual({
      ...base,
      leader: -1,
      leaderEpoch: 5,
    });
  });

  it('elects the first live in-sync replica of an offline partition, with a new epoch', () => {
    const offline = { ...base, replicas: [2, 3, 1], isr: [2, 3, 1], leader: -1, leaderEpoch: 5 };
    expect(leaderDecision(offline, (id) => id !== 2, clean)?.next).toMatchObject({
      leader: 3,
      leaderEpoch: 6,
      isr: [3, 1],
    });
  });

  it('moves leadership to a live in-sync replica when the leader dies, dropping the dead leader from the ISR', () => {
    const decision = leaderDecision(three, (id) => id !== 1, strict);
    expect(decision).toMatchObject({
      reason: 'leader-not-live',
      next: { leader: 2, leaderEpoch: 5, isr: [2, 3] },
    });
    expect(decision?.next.elr).toBeUndefined();
  });

  it('removes a dead follower from the ISR without a new leader epoch', () => {
    const decision = leaderDecision(three, (id) => id !== 3, strict);
    expect(decision).toMatchObject({
      reason: 'member-not-live',
      next: { leader: 1, leaderEpoch: 4, isr: [1, 2] },
    });
  });

  it('keeps members that left below min ISR eligible, and elects one when no in-sync replica is live', () => {
    // ISR [1, 2] at min ISR 2: 2 dies, so the high watermark stops and 2 holds every acknowledged record.
    const shrunk = leaderDecision({ ...three, isr: [1, 2] }, (id) => id !== 2, strict)!.next;
    expect(shrunk).toMatchObject({ isr: [1], elr: [2] });
    // Then the leader dies and 2 comes back: it leads, and 3 (never eligible) does not.
    const elected = leaderDecision(shrunk, (id) => id !== 1, strict)!.next;
    expect(elected).toMatchObject({ leader: 2, leaderEpoch: 5, isr: [2] });
    expect(elected.elr).toBeUndefined();
  });

  it('never elects an out-of-sync replica unless the topic allows unclean election', () => {
    const lonely = { ...three, isr: [1] };
    expect(leaderDecision(lonely, (id) => id !== 1, strict)?.next).toMatchObject({ leader: -1, isr: [1] });
    expect(
      leaderDecision(lonely, (id) => id !== 1, { ...strict, uncleanLeaderElectionEnable: true }),
    ).toMatchObject({
      reason: 'unclean',
      next: { leader: 2, isr: [2], leaderEpoch: 5 },
    });
  });

  it('keeps an offline partition offline while no in-sync replica is live', () => {
    expect(leaderDecision({ ...base, leader: -1 }, () => false, clean)).toBeUndefined();
  });

  it('takes a member that came back on another disk out of the ISR, even the last one, and never elects it', () => {
    const recorded = { ...three, memberStorage: { '1': 'disk-a', '2': 'disk-b', '3': 'disk-c' } };
    const storage = (id: number) => (id === 2 ? 'disk-b2' : `disk-${'abc'[id - 1]}`);
    expect(leaderDecision(recorded, () => true, strict, storage)).toMatchObject({
      reason: 'member-lost-storage',
      next: { leader: 1, leaderEpoch: 4, isr: [1, 3] },
    });
    // The last in-sync replica, back with an empty disk: the partition stays offline.
    const lastOnly = { ...recorded, leader: -1, leaderEpoch: 6, isr: [2] };
    expect(leaderDecision(lastOnly, () => true, strict, storage)).toMatchObject({
      next: { leader: -1, isr: [], leaderEpoch: 6 },
    });
    // A leader back on a new disk is replaced by an in-sync replica that kept its log.
    const ledByLost = { ...recorded, leader: 2 };
    expect(leaderDecision(ledByLost, () => true, strict, storage)).toMatchObject({
      next: { leader: 1, leaderEpoch: 5, isr: [1, 3] },
    });
  });

  it('keeps a member that came back on the same disk', () => {
    const recorded = { ...three, memberStorage: { '1': 'disk-a', '2': 'disk-b', '3': 'disk-c' } };
    expect(
      leaderDecision(
        recorded,
        () => true,
        strict,
        (id) => `disk-${'abc'[id - 1]}`,
      ),
    ).toBeUndefined();
  });
});
