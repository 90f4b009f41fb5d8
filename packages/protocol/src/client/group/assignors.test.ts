import { describe, expect, it } from 'vitest';
import type { AssignorMember } from './assignor';
import { canTransition, GROUP_CONSUMER_TRANSITIONS, type GroupConsumerState } from './group-consumer-state';
import { rangeAssignor } from './range-assignor';
import { roundRobinAssignor } from './round-robin-assignor';
import { cooperativeStickyAssignor } from './sticky-assignor';

const member = (memberId: string, topics: string[], owned: [string, number[]][] = []): AssignorMember => ({
  memberId,
  topics,
  ownedPartitions: owned.map(([topic, partitions]) => ({ topic, partitions })),
});

describe('assignors', () => {
  const counts = new Map([
    ['a', 3],
    ['b', 2],
  ]);

  it('range gives each topic in consecutive ranges, the first members one more', () => {
    const result = rangeAssignor.assign([member('m2', ['a', 'b']), member('m1', ['a', 'b'])], counts);
    expect(result.get('m1')).toEqual([
      { topic: 'a', partitions: [0, 1] },
      { topic: 'b', partitions: [0] },
    ]);
    expect(result.get('m2')).toEqual([
      { topic: 'a', partitions: [2] },
      { topic: 'b', partitions: [1] },
    ]);
  });

  it('roundrobin deals all partitions in turn, skipping members not subscribed', () => {
    const result = roundRobinAssignor.assign([member('m1', ['a', 'b']), member('m2', ['a'])], counts);
    expect(result.get('m1')).toEqual([
      { topic: 'a', partitions: [0, 2] },
      { topic: 'b', partitions: [0, 1] },
    ]);
    expect(result.get('m2')).toEqual([{ topic: 'a', partitions: [1] }]);
  });

  it('cooperative-sticky keeps owned partitions while balancing, and ignores unknown topics', () => {
    const six = new Map([['t', 6]]);
    const result = cooperativeStickyAssignor.assign(
      [
        member('m1', ['t', 'gone'], [['t', [0, 1, 2, 3, 4]]]),
        member('m2', ['t'], [['t', [5]]]),
        member('m3', ['t']),
      ],
      six,
    );
    // m1 gives up 2, 3 and 4; under the cooperative protocol nobody gets them in this round.
    expect(result.get('m1')).toEqual([{ topic: 't', partitions: [0, 1] }]);
    expect(result.get('m2')).toEqual([{ topic: 't', partitions: [5] }]);
    expect(result.get('m3')).toEqual([]);
    // The follow-up round, after m1 revoked them, hands them out balanced.
    const next = cooperativeStickyAssignor.assign(
      [member('m1', ['t'], [['t', [0, 1]]]), member('m2', ['t'], [['t', [5]]]), member('m3', ['t'])],
      six,
    );
    expect(next.get('m1')).toEqual([{ topic: 't', partitions: [0, 1] }]);
    expect(next.get('m2')).toEqual([{ topic: 't', partitions: [3, 5] }]);
    expect(next.get('m3')).toEqual([{ topic: 't', partitions: [2, 4] }]);
  });

  it('cooperative-sticky hands out at once the partitions of a member that left', () => {
    const result = cooperativeStickyAssignor.assign(
      [member('m1', ['t'], [['t', [0, 1, 2]]]), member('m2', ['t'])],
      new Map([['t', 6]]),
    );
    const all = [...result.values()].flatMap((list) => list.flatMap((entry) => entry.partitions));
    expect(all.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(result.get('m1')).toEqual([{ topic: 't', partitions: [0, 1, 2] }]);
  });

  it('every assignor assigns each partition exactly once', () => {
    const members = [member('x', ['a', 'b']), member('y', ['a', 'b']), member('z', ['a', 'b'])];
    for (const assignor of [rangeAssignor, roundRobinAssignor, cooperativeStickyAssignor]) {
      const all = [...assignor.assign(members, counts).values()].flatMap((list) =>
        list.flatMap((entry) => entry.partitions.map((partition) => `${entry.topic}-${partition}`)),
      );
      expect(all.sort()).toEqual(['a-0', 'a-1', 'a-2', 'b-0', 'b-1']);
    }
  });
});

describe('group consumer states', () => {
  it('lets close win from every state but closed, and closed is final', () => {
    const states = Object.keys(GROUP_CONSUMER_TRANSITIONS) as GroupConsumerState[];
    for (const state of states) {
      if (state === 'closing' || state === 'closed') continue;
      expect(canTransition(state, 'closing')).toBe(true);
    }
    expect(GROUP_CONSUMER_TRANSITIONS.closed).toEqual([]);
    expect(canTransition('running', 'rebalancing')).toBe(true);
    expect(canTransition('rebalancing', 'running')).toBe(true);
    expect(canTransition('new', 'running')).toBe(false);
    expect(canTransition('closing', 'running')).toBe(false);
  });
});
