import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { checkReplicationFactor, placePartitions } from './replica-placement';

const factor = (replicationFactor: number) => ({ kind: 'factor', replicationFactor }) as const;

describe('placePartitions', () => {
  it('spreads leaders evenly over the brokers and never puts two replicas on one broker', () => {
    const placed = placePartitions('t', 0, 6, factor(3), [3, 1, 2]);
    expect(placed.map((a) => a.leader)).toEqual([1, 2, 3, 1, 2, 3]);
    for (const assignment of placed) expect(new Set(assignment.replicas).size).toBe(3);
  });

  it('puts each partition’s replicas in different racks when brokers name their racks', () => {
    // Two racks of three brokers: a rack-unaware spread would put some partitions twice in one rack.
    const racks = new Map<number, string | null>([
      [1, 'a'],
      [2, 'a'],
      [3, 'a'],
      [4, 'b'],
      [5, 'b'],
      [6, 'b'],
    ]);
    const placed = placePartitions('t', 0, 12, factor(2), [1, 2, 3, 4, 5, 6], 0, racks);
    for (const assignment of placed) {
      expect(new Set(assignment.replicas.map((id) => racks.get(id))).size).toBe(2);
    }
    const leaders = placed.map((a) => a.leader);
    for (const id of [1, 2, 3, 4, 5, 6]) expect(leaders.filter((leader) => leader === id)).toHaveLength(2);
  });

  it('uses every rack before a second replica in one, with three replicas over two racks', () => {
    const racks = new Map<number, string | null>([
      [1, 'a'],
      [2, 'a'],
      [3, 'b'],
      [4, 'b'],
    ]);
    for (const assignment of placePartitions('t', 0, 8, factor(3), [1, 2, 3, 4], 0, racks)) {
      expect(new Set(assignment.replicas).size).toBe(3);
      expect(new Set(assignment.replicas.map((id) => racks.get(id))).size).toBe(2);
    }
  });
});

describe('checkReplicationFactor', () => {
  it('accepts factors up to the live brokers and names both numbers above them', () => {
    for (const factor of [1, 2, 3]) expect(() => checkReplicationFactor(factor, 3)).not.toThrow();
    expect(() => checkReplicationFactor(4, 3)).toThrow(
      expect.objectContaining({
        code: ErrorCode.INVALID_REPLICATION_FACTOR,
        detail: 'replication factor 4 is larger than the 3 live brokers',
      }),
    );
  });

  it('refuses a factor below 1 (the -1 default is resolved before)', () => {
    for (const factor of [0, -2, 1.5]) {
      expect(() => checkReplicationFactor(factor, 3)).toThrow(
        expect.objectContaining({ code: ErrorCode.INVALID_REPLICATION_FACTOR }),
      );
    }
  });

  it('places three replicas on three different brokers of three', () => {
    const placed = placePartitions('t', 0, 3, factor(3), [1, 2, 3]);
    expect(placed.map((a) => [...a.replicas].sort())).toEqual([
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ]);
    for (const assignment of placed) expect(assignment.isr).toEqual(assignment.replicas);
  });
});
