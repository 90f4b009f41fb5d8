import { describe, expect, it } from 'vitest';
import type { PartitionAssignment } from '../metadata/metadata-store';
import { leaderDecision } from './partition-controller';

const base: PartitionAssignment = {
  topic: 't',
  partition: 0,
  replicas: [2],
  leader: 2,
  leaderEpoch: 4,
  isr: [2],
  version: 17,
};

describe('leaderDecision', () => {
  it('leaves a partition whose leader is live alone', () => {
    expect(leaderDecision(base, () => true)).toBeUndefined();
  });

  it('takes a partition offline with a new epoch when its leader is not live, keeping the version it read', () => {
    expect(leaderDecision(base, (id) => id !== 2)).toEqual({ ...base, leader: -1, leaderEpoch: 5 });
  });

  it('elects the first live in-sync replica of an offline partition, with a new epoch', () => {
    const offline = { ...base, replicas: [2, 3, 1], isr: [2, 3, 1], leader: -1, leaderEpoch: 5 };
    expect(leaderDecision(offline, (id) => id !== 2)).toMatchObject({ leader: 3, leaderEpoch: 6 });
  });

  it('moves leadership straight to a live in-sync replica when the leader dies', () => {
    const replicated = { ...base, replicas: [2, 3], isr: [2, 3] };
    expect(leaderDecision(replicated, (id) => id === 3)).toMatchObject({ leader: 3, leaderEpoch: 5 });
  });

  it('keeps an offline partition offline while no in-sync replica is live', () => {
    expect(leaderDecision({ ...base, leader: -1 }, () => false)).toBeUndefined();
  });
});
