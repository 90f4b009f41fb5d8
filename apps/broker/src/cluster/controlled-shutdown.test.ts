import { describe, expect, it } from 'vitest';
import type { PartitionAssignment } from '../metadata/metadata-store';
import { shutdownStep } from './controlled-shutdown';

const three: PartitionAssignment = {
  topic: 't',
  partition: 0,
  replicas: [1, 2, 3],
  leader: 1,
  leaderEpoch: 4,
  isr: [1, 2, 3],
  version: 17,
};
const allLive = () => true;

describe('shutdownStep', () => {
  it('hands leadership to the first live in-sync replica at the next epoch, keeping the version it read', () => {
    const step = shutdownStep(three, 1, allLive, 2);
    expect(step).toEqual({
      kind: 'move-leader',
      next: { ...three, leader: 2, leaderEpoch: 5, isr: [2, 3] },
    });
  });

  it('skips in-sync replicas that are not live', () => {
    const step = shutdownStep(three, 1, (id) => id !== 2, 2);
    expect(step).toMatchObject({ kind: 'move-leader', next: { leader: 3, leaderEpoch: 5, isr: [2, 3] } });
  });

  it('never hands leadership to a replica outside the ISR', () => {
    const step = shutdownStep({ ...three, isr: [1, 3] }, 1, allLive, 1);
    expect(step).toMatchObject({ kind: 'move-leader', next: { leader: 3, isr: [3] } });
  });

  it('leaves the ISR as a follower without a new leader epoch', () => {
    const step = shutdownStep(three, 3, allLive, 2);
    expect(step).toEqual({ kind: 'leave-isr', next: { ...three, isr: [1, 2] } });
  });

  it('empties the ELR while the ISR keeps min.insync.replicas members', () => {
    const step = shutdownStep({ ...three, isr: [1, 2, 3], elr: [3] }, 2, allLive, 1);
    expect(step?.kind).toBe('leave-isr');
    expect(step).toMatchObject({ next: { isr: [1, 3] } });
    expect(step?.kind === 'stay' ? undefined : step?.next.elr).toBeUndefined();
  });

  it('stays eligible when leaving takes the ISR below min.insync.replicas (KIP-966)', () => {
    const step = shutdownStep({ ...three, isr: [1, 2] }, 1, allLive, 2);
    expect(step).toMatchObject({
      kind: 'move-leader',
      next: { leader: 2, leaderEpoch: 5, isr: [2], elr: [1] },
    });
  });

  it('stays where it is the only in-sync replica, or the only live one, saying why', () => {
    expect(shutdownStep({ ...three, isr: [1] }, 1, allLive, 1)).toEqual({
      kind: 'stay',
      reason: 'broker 1 is the only in-sync replica',
    });
    expect(shutdownStep(three, 1, (id) => id === 1, 2)).toEqual({
      kind: 'stay',
      reason: 'no other in-sync replica of [1, 2, 3] is live',
    });
    // A follower whose leader and other members are gone keeps the partition's last live copy.
    expect(shutdownStep({ ...three, leader: -1, isr: [2, 3] }, 3, (id) => id === 3, 2)).toMatchObject({
      kind: 'stay',
    });
  });

  it('has nothing to do for a partition whose ISR it is not in', () => {
    expect(shutdownStep({ ...three, isr: [1, 2] }, 3, allLive, 2)).toBeUndefined();
    expect(shutdownStep({ ...three, isr: [1, 2], elr: [3] }, 3, allLive, 2)).toBeUndefined();
  });
});
