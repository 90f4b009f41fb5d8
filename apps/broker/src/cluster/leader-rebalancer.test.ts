import { describe, expect, it } from 'vitest';
import type { PartitionAssignment } from '../metadata/metadata-store';
import { rebalanceTargets } from './leader-rebalancer';

function partition(
  index: number,
  replicas: number[],
  leader: number,
  more: Partial<PartitionAssignment> = {},
): PartitionAssignment {
  return {
    topic: 't',
    partition: index,
    replicas,
    leader,
    leaderEpoch: 1,
    isr: [...replicas],
    version: 1,
    ...more,
  };
}

const everyoneLive = () => true;

describe('rebalanceTargets', () => {
  it('picks the partitions of brokers above the imbalance whose preferred replica is back in sync', () => {
    // Broker 1 prefers 0, 1 and 2 and leads only 0 (67% imbalance); broker 2 prefers 3 and leads it.
    const assignments = [
      partition(0, [1, 2, 3], 1),
      partition(1, [1, 2, 3], 2),
      partition(2, [1, 3, 2], 3),
      partition(3, [2, 3, 1], 2),
    ];
    expect(rebalanceTargets(assignments, everyoneLive, 10)).toEqual([
      { topic: 't', partition: 1 },
      { topic: 't', partition: 2 },
    ]);
  });

  it('leaves brokers within the percentage alone', () => {
    // Broker 1 leads 3 of its 4 preferred partitions: 25% imbalance, not above 25.
    const assignments = [
      partition(0, [1, 2], 1),
      partition(1, [1, 2], 1),
      partition(2, [1, 2], 1),
      partition(3, [1, 2], 2),
    ];
    expect(rebalanceTargets(assignments, everyoneLive, 25)).toEqual([]);
    expect(rebalanceTargets(assignments, everyoneLive, 24)).toEqual([{ topic: 't', partition: 3 }]);
  });

  it('skips a preferred replica that is not live, not in the ISR, or a partition being reassigned', () => {
    const assignments = [
      partition(0, [1, 2, 3], 2),
      partition(1, [1, 2, 3], 2, { isr: [2, 3] }),
      partition(2, [1, 2, 3], 2, { addingReplicas: [1], replicas: [1, 2, 3] }),
      partition(3, [4, 2, 3], 2),
    ];
    expect(rebalanceTargets(assignments, (id) => id !== 4, 10)).toEqual([{ topic: 't', partition: 0 }]);
  });
});
