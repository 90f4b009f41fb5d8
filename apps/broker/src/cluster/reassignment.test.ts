import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import type { PartitionAssignment } from '../metadata/metadata-store';
import {
  alterReassignment,
  cancelReassignment,
  isAddingReplica,
  reassignmentCompletion,
  reassignmentState,
  reassignmentTransition,
} from './reassignment';

const three: PartitionAssignment = {
  topic: 't',
  partition: 0,
  replicas: [1, 2, 3],
  leader: 1,
  leaderEpoch: 4,
  isr: [1, 2, 3],
  version: 9,
};
const registered = (id: number) => id >= 1 && id <= 4;
const allLive = () => true;

function next(outcome: ReturnType<typeof alterReassignment>): PartitionAssignment {
  if ('rejected' in outcome) throw new Error(outcome.rejected.message);
  return outcome.next;
}

describe('reassignment transition table', () => {
  it('allows alter from idle and moving, cancel and complete only while moving', () => {
    expect(reassignmentTransition('idle', 'alter')).toBe('moving');
    expect(reassignmentTransition('idle', 'cancel')).toBeUndefined();
    expect(reassignmentTransition('idle', 'complete')).toBeUndefined();
    expect(reassignmentTransition('moving', 'alter')).toBe('moving');
    expect(reassignmentTransition('moving', 'cancel')).toBe('idle');
    expect(reassignmentTransition('moving', 'complete')).toBe('idle');
  });
});

describe('alterReassignment', () => {
  it('puts the target first and the removing replicas after it, keeping leader and ISR', () => {
    const moving = next(alterReassignment(three, [2, 3, 4], registered));
    expect(moving).toMatchObject({
      replicas: [2, 3, 4, 1],
      addingReplicas: [4],
      removingReplicas: [1],
      leader: 1,
      leaderEpoch: 4,
      isr: [1, 2, 3],
    });
    expect(reassignmentState(moving)).toBe('moving');
    expect(isAddingReplica(moving, 4)).toBe(true);
    expect(isAddingReplica(moving, 2)).toBe(false);
  });

  it('answers UNKNOWN_TOPIC_OR_PARTITION for a partition that does not exist', () => {
    expect(alterReassignment(undefined, [1], registered)).toMatchObject({
      rejected: { errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION },
    });
  });

  it('answers INVALID_REPLICA_ASSIGNMENT naming an empty list, a duplicate and an unknown broker', () => {
    expect(alterReassignment(three, [], registered)).toMatchObject({
      rejected: { errorCode: ErrorCode.INVALID_REPLICA_ASSIGNMENT, message: expect.stringMatching(/empty/) },
    });
    expect(alterReassignment(three, [2, 2, 3], registered)).toMatchObject({
      rejected: {
        errorCode: ErrorCode.INVALID_REPLICA_ASSIGNMENT,
        message: expect.stringMatching(/broker 2 more/),
      },
    });
    expect(alterReassignment(three, [2, 3, 7], registered)).toMatchObject({
      rejected: {
        errorCode: ErrorCode.INVALID_REPLICA_ASSIGNMENT,
        message: expect.stringMatching(/unknown broker 7/),
      },
    });
  });

  it('changes nothing for a target equal to the replicas of an idle partition', () => {
    expect(next(alterReassignment(three, [1, 2, 3], registered))).toEqual(three);
  });

  it('replaces a move in progress from its current replicas', () => {
    const moving = next(alterReassignment(three, [2, 3, 4], registered));
    expect(next(alterReassignment(moving, [1, 2, 3], registered))).toMatchObject({
      replicas: [1, 2, 3, 4],
      addingReplicas: [],
      removingReplicas: [4],
    });
  });
});

describe('reassignmentCompletion', () => {
  const moving = next(alterReassignment(three, [2, 3, 4], registered));

  it('waits while an adding replica is not in the ISR', () => {
    expect(reassignmentCompletion(moving, allLive)).toBeUndefined();
  });

  it('completes once every adding replica is in sync, moving leadership off a removed leader at a new epoch', () => {
    const caughtUp = { ...moving, isr: [1, 2, 3, 4] };
    const done = reassignmentCompletion(caughtUp, allLive);
    expect(done).toEqual({ ...three, replicas: [2, 3, 4], isr: [2, 3, 4], leader: 2, leaderEpoch: 5 });
    expect(reassignmentState(done!)).toBe('idle');
  });

  it('keeps the leader and epoch when the leader stays', () => {
    const keep = next(alterReassignment(three, [1, 2, 4], registered));
    expect(reassignmentCompletion({ ...keep, isr: [1, 2, 3, 4] }, allLive)).toMatchObject({
      replicas: [1, 2, 4],
      isr: [1, 2, 4],
      leader: 1,
      leaderEpoch: 4,
    });
  });

  it('elects only a live in-sync target member, and waits when none is live', () => {
    const caughtUp = { ...moving, isr: [1, 2, 3, 4] };
    expect(reassignmentCompletion(caughtUp, (id) => id !== 2)).toMatchObject({ leader: 3 });
    expect(reassignmentCompletion(caughtUp, (id) => id === 1)).toBeUndefined();
  });

  it('does nothing for an idle partition', () => {
    expect(reassignmentCompletion(three, allLive)).toBeUndefined();
  });
});

describe('cancelReassignment', () => {
  const moving = next(alterReassignment(three, [2, 3, 4], registered));

  it('reverts to the original replicas (in the moving order, as Kafka does), the adding ones leaving the ISR', () => {
    expect(cancelReassignment({ ...moving, isr: [1, 2, 3, 4] }, allLive)).toEqual({
      next: { ...three, replicas: [2, 3, 1], isr: [1, 2, 3] },
    });
  });

  it('moves leadership off an adding replica that leads, at a new epoch', () => {
    const ledByAdding = { ...moving, isr: [2, 4], leader: 4, leaderEpoch: 6 };
    expect(cancelReassignment(ledByAdding, allLive)).toMatchObject({
      next: { replicas: [2, 3, 1], isr: [2], leader: 2, leaderEpoch: 7 },
    });
  });

  it('answers NO_REASSIGNMENT_IN_PROGRESS for an idle partition and UNKNOWN_TOPIC_OR_PARTITION for none', () => {
    expect(cancelReassignment(three, allLive)).toMatchObject({
      rejected: { errorCode: ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, message: expect.stringMatching(/t-0/) },
    });
    expect(cancelReassignment(undefined, allLive)).toMatchObject({
      rejected: { errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION },
    });
  });

  it('refuses a cancel that would leave no original replica in sync', () => {
    expect(cancelReassignment({ ...moving, isr: [4], leader: 4 }, allLive)).toMatchObject({
      rejected: { errorCode: ErrorCode.INVALID_REPLICA_ASSIGNMENT },
    });
  });
});
