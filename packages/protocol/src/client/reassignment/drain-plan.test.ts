import { describe, expect, it } from 'vitest';
import { drainPlan, type PlacedPartition } from './drain-plan';

function partition(index: number, replicas: number[]): PlacedPartition {
  return { topic: 't', partition: index, replicas };
}

describe('drainPlan', () => {
  it('moves every replica off the broker to the least loaded free broker, a remaining replica first', () => {
    // Before: broker 2 holds 3 replicas, 3 holds 2, 4 holds none; after: 3, 2 and 3.
    const assignments = [
      partition(0, [1, 2]),
      partition(1, [2, 1]),
      partition(2, [1, 3]),
      partition(3, [3, 2]),
    ];
    const moves = drainPlan(
      assignments,
      [{ brokerId: 1 }, { brokerId: 2 }, { brokerId: 3 }, { brokerId: 4 }],
      1,
    );
    expect(moves).toEqual([
      { topic: 't', partition: 0, currentReplicas: [1, 2], replicas: [2, 4] },
      { topic: 't', partition: 1, currentReplicas: [2, 1], replicas: [2, 4] },
      { topic: 't', partition: 2, currentReplicas: [1, 3], replicas: [3, 4] },
    ]);
  });

  it("keeps the drained broker's rack when a broker on it is free", () => {
    const moves = drainPlan(
      [partition(0, [1, 2])],
      [
        { brokerId: 1, rack: 'a' },
        { brokerId: 2, rack: 'b' },
        { brokerId: 3, rack: 'b' },
        { brokerId: 4, rack: 'a' },
      ],
      1,
    );
    expect(moves).toEqual([{ topic: 't', partition: 0, currentReplicas: [1, 2], replicas: [2, 4] }]);
  });

  it('names a partition that has nowhere to go', () => {
    const moves = drainPlan(
      [partition(0, [1, 2, 3])],
      [{ brokerId: 1 }, { brokerId: 2 }, { brokerId: 3 }],
      1,
    );
    expect(moves).toEqual([
      {
        topic: 't',
        partition: 0,
        currentReplicas: [1, 2, 3],
        problem: "no broker outside replicas 1,2,3 can take broker 1's replica",
      },
    ]);
  });
});
