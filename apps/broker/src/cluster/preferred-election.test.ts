import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import type { PartitionAssignment } from '../metadata/metadata-store';
import { imbalancedBrokers, preferredElection, uncleanElection } from './preferred-election';

const moved: PartitionAssignment = {
  topic: 't',
  partition: 0,
  replicas: [1, 2, 3],
  leader: 2,
  leaderEpoch: 4,
  isr: [1, 2, 3],
  version: 9,
};
const allLive = () => true;

describe('preferredElection', () => {
  it('makes the first replica leader again at a new epoch', () => {
    expect(preferredElection(moved, allLive)).toEqual({ next: { ...moved, leader: 1, leaderEpoch: 5 } });
  });

  it('answers ELECTION_NOT_NEEDED when the preferred replica leads', () => {
    expect(preferredElection({ ...moved, leader: 1 }, allLive)).toMatchObject({
      errorCode: ErrorCode.ELECTION_NOT_NEEDED,
    });
  });

  it('answers PREFERRED_LEADER_NOT_AVAILABLE when it is not live or not in sync', () => {
    expect(preferredElection(moved, (id) => id !== 1)).toMatchObject({
      errorCode: ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE,
    });
    expect(preferredElection({ ...moved, isr: [2, 3] }, allLive)).toMatchObject({
      errorCode: ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE,
    });
  });
});

describe('uncleanElection', () => {
  const offline = { ...moved, leader: -1, isr: [3] };

  it('answers ELECTION_NOT_NEEDED for a partition with a leader', () => {
    expect(uncleanElection(moved, allLive)).toMatchObject({ errorCode: ErrorCode.ELECTION_NOT_NEEDED });
  });

  it('prefers a live in-sync replica, else any live replica as the whole ISR', () => {
    expect(uncleanElection(offline, allLive)).toMatchObject({
      next: { leader: 3, leaderEpoch: 5, isr: [3] },
    });
    expect(uncleanElection(offline, (id) => id === 2)).toMatchObject({
      next: { leader: 2, leaderEpoch: 5, isr: [2] },
    });
  });

  it('answers ELIGIBLE_LEADERS_NOT_AVAILABLE when no replica is live', () => {
    expect(uncleanElection(offline, () => false)).toMatchObject({
      errorCode: ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE,
    });
  });
});

describe('imbalancedBrokers', () => {
  const partitions = Array.from({ length: 10 }, (_, partition) => ({ ...moved, partition, leader: 1 }));

  it('names a broker whose share of not-led preferred partitions exceeds the percentage', () => {
    const oneMoved = partitions.map((p, i) => (i === 0 ? { ...p, leader: 2 } : p));
    expect(imbalancedBrokers(oneMoved, 10)).toEqual([]);
    const twoMoved = partitions.map((p, i) => (i < 2 ? { ...p, leader: 2 } : p));
    expect(imbalancedBrokers(twoMoved, 10)).toEqual([1]);
  });
});
