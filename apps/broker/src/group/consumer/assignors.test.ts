import { describe, expect, it } from 'vitest';
import { type Assignment, partitionCount } from './assignment';
import type { AssignmentInput } from './assignor';
import { preferredAssignor } from './assignor';
import { rangeAssignor } from './range-assignor';
import { uniformAssignor } from './uniform-assignor';

const topics = new Map([
  ['a', { topicId: 'id-a', numPartitions: 6 }],
  ['b', { topicId: 'id-b', numPartitions: 3 }],
]);

function members(...subscriptions: [string, string[]][]): AssignmentInput['members'] {
  return subscriptions.map(([memberId, subscribedTopicNames]) => ({
    memberId,
    instanceId: null,
    subscribedTopicNames,
  }));
}

/** Every partition of the result, checked to be assigned once and only to a subscriber. */
function expectComplete(input: AssignmentInput, result: Map<string, Assignment>): void {
  const seen = new Set<string>();
  for (const [memberId, assignment] of result) {
    const member = input.members.find((candidate) => candidate.memberId === memberId)!;
    for (const [topicId, partitions] of assignment) {
      const name = [...input.topics].find(([, topic]) => topic.topicId === topicId)![0];
      expect(member.subscribedTopicNames).toContain(name);
      for (const partition of partitions) {
        expect(seen.has(`${topicId}-${partition}`)).toBe(false);
        seen.add(`${topicId}-${partition}`);
      }
    }
  }
  let total = 0;
  for (const [name, topic] of input.topics) {
    if (input.members.some((member) => member.subscribedTopicNames.includes(name)))
      total += topic.numPartitions;
  }
  expect(seen.size).toBe(total);
}

describe('uniform assignor', () => {
  it('spreads equal subscriptions within one partition of each other', () => {
    const input = {
      members: members(['m1', ['a', 'b']], ['m2', ['a', 'b']], ['m3', ['a', 'b']], ['m4', ['a', 'b']]),
      topics,
      currentTarget: new Map(),
    };
    const result = uniformAssignor.assign(input);
    expectComplete(input, result);
    const counts = [...result.values()].map(partitionCount).sort();
    expect(counts).toEqual([2, 2, 2, 3]);
  });

  it('balances unequal subscriptions as far as they allow', () => {
    const input = { members: members(['m1', ['a']], ['m2', ['a', 'b']]), topics, currentTarget: new Map() };
    const result = uniformAssignor.assign(input);
    expectComplete(input, result);
    expect([...result.values()].map(partitionCount).sort()).toEqual([4, 5]);
  });

  it('keeps partitions in place when a member joins: only what the newcomer needs moves', () => {
    const first = {
      members: members(['m1', ['a', 'b']], ['m2', ['a', 'b']]),
      topics,
      currentTarget: new Map(),
    };
    const before = uniformAssignor.assign(first);
    const second = {
      members: members(['m1', ['a', 'b']], ['m2', ['a', 'b']], ['m3', ['a', 'b']]),
      topics,
      currentTarget: before,
    };
    const after = uniformAssignor.assign(second);
    expectComplete(second, after);
    let moved = 0;
    for (const memberId of ['m1', 'm2']) {
      for (const [topicId, partitions] of before.get(memberId)!) {
        for (const partition of partitions)
          if (!after.get(memberId)!.get(topicId)?.has(partition)) moved += 1;
      }
    }
    expect(moved).toBe(3);
    expect(partitionCount(after.get('m3')!)).toBe(3);
  });
});

describe('range assignor', () => {
  it('gives contiguous ranges per topic, the first members one more', () => {
    const input = {
      members: members(['m2', ['a', 'b']], ['m1', ['a', 'b']]),
      topics,
      currentTarget: new Map(),
    };
    const result = rangeAssignor.assign(input);
    expectComplete(input, result);
    expect([...result.get('m1')!.get('id-a')!]).toEqual([0, 1, 2]);
    expect([...result.get('m2')!.get('id-a')!]).toEqual([3, 4, 5]);
    expect([...result.get('m1')!.get('id-b')!]).toEqual([0, 1]);
    expect([...result.get('m2')!.get('id-b')!]).toEqual([2]);
  });
});

describe('the group’s assignor', () => {
  it('is the one most members ask for, else uniform', () => {
    expect(preferredAssignor([{ serverAssignor: null }]).name).toBe('uniform');
    expect(preferredAssignor([{ serverAssignor: 'range' }, { serverAssignor: null }]).name).toBe('range');
    expect(
      preferredAssignor([
        { serverAssignor: 'range' },
        { serverAssignor: 'uniform' },
        { serverAssignor: 'uniform' },
      ]).name,
    ).toBe('uniform');
  });
});
