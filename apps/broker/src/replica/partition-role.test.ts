import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { judgeRoleChange, leaderEpochError, type PartitionRole } from './partition-role';

describe('the partition role transition table', () => {
  // [from, current epoch, to, next epoch, outcome]
  const cases: [PartitionRole, number, PartitionRole, number, 'changed' | 'updated' | 'refused'][] = [
    // A partition new to this broker takes whatever its first assignment says.
    ['none', -1, 'leader', 0, 'changed'],
    ['none', -1, 'follower', 0, 'changed'],
    ['none', -1, 'none', 0, 'updated'],
    // The same epoch within a role is an ISR or replica update; a higher one a new leadership.
    ['leader', 3, 'leader', 3, 'updated'],
    ['leader', 3, 'leader', 4, 'changed'],
    ['follower', 3, 'follower', 3, 'updated'],
    ['follower', 3, 'follower', 5, 'changed'],
    // Leader and follower change only through an election, which always bumps the epoch.
    ['leader', 3, 'follower', 4, 'changed'],
    ['leader', 3, 'follower', 3, 'refused'],
    ['follower', 3, 'leader', 4, 'changed'],
    ['follower', 3, 'leader', 3, 'refused'],
    // An assignment older than what this broker applied is stale, whatever it asks for.
    ['leader', 3, 'leader', 2, 'refused'],
    ['follower', 3, 'follower', 2, 'refused'],
    ['none', 3, 'leader', 2, 'refused'],
    // Giving up a role is always possible.
    ['leader', 3, 'none', 0, 'changed'],
    ['follower', 3, 'none', 9, 'changed'],
  ];
  it.each(cases)('%s at epoch %i → %s at epoch %i: %s', (from, currentEpoch, to, nextEpoch, expected) => {
    const outcome = judgeRoleChange(from, currentEpoch, to, nextEpoch);
    expect(outcome.kind).toBe(expected);
    if (outcome.kind === 'refused') expect(outcome.reason).toContain(`epoch ${nextEpoch}`);
  });
});

describe("a request's current leader epoch (KIP-320)", () => {
  const cases: [number, number, number][] = [
    [5, -1, ErrorCode.NONE],
    [5, 5, ErrorCode.NONE],
    [5, 4, ErrorCode.FENCED_LEADER_EPOCH],
    [5, 0, ErrorCode.FENCED_LEADER_EPOCH],
    [5, 6, ErrorCode.UNKNOWN_LEADER_EPOCH],
    [0, 1, ErrorCode.UNKNOWN_LEADER_EPOCH],
  ];
  it.each(cases)('partition at %i, request says %i: error %i', (partitionEpoch, requested, expected) => {
    expect(leaderEpochError(partitionEpoch, requested)).toBe(expected);
  });
});
