import { ErrorCode } from '@weir/protocol';

/**
 * What this broker is for one partition: its leader (it takes writes, serves reads and moves the
 * high watermark), a follower (it copies the leader), or neither (the partition is not assigned
 * here, or not yet, or no longer).
 */
export type PartitionRole = 'none' | 'leader' | 'follower';

/**
 * How a role change must relate to the partition's current leader epoch. `any`: the epoch does not
 * matter (stopping). `at-least-current`: the same epoch is an update within the role (a changed
 * ISR or replica list), a higher one is a new leadership. `newer`: only a higher epoch, since a
 * broker changes between leader and follower only through an election, and every election bumps
 * the epoch.
 */
type EpochRule = 'any' | 'at-least-current' | 'newer';

/** The partition role state machine: from each role, the rule for each target role. */
const ROLE_TRANSITIONS: Readonly<Record<PartitionRole, Readonly<Record<PartitionRole, EpochRule>>>> = {
  none: { none: 'any', leader: 'at-least-current', follower: 'at-least-current' },
  leader: { none: 'any', leader: 'at-least-current', follower: 'newer' },
  follower: { none: 'any', leader: 'newer', follower: 'at-least-current' },
};

/** What applying a role change means: a new role or leadership, an update within it, or a refusal. */
export type RoleChangeOutcome =
  | { kind: 'changed' }
  | { kind: 'updated' }
  | { kind: 'refused'; reason: string };

/**
 * Judges a change from `from` at `currentEpoch` to `to` at `nextEpoch` by the transition table. A
 * refused change comes from metadata older than what this broker has applied (a stale
 * assignment); the caller keeps its state and logs the reason.
 */
export function judgeRoleChange(
  from: PartitionRole,
  currentEpoch: number,
  to: PartitionRole,
  nextEpoch: number,
): RoleChangeOutcome {
  const rule = ROLE_TRANSITIONS[from][to];
  if (rule === 'any') return from === to ? { kind: 'updated' } : { kind: 'changed' };
  if (nextEpoch < currentEpoch || (rule === 'newer' && nextEpoch === currentEpoch)) {
    return {
      kind: 'refused',
      reason: `${from} at leader epoch ${currentEpoch} cannot become ${to} at epoch ${nextEpoch}`,
    };
  }
  return from === to && nextEpoch === currentEpoch ? { kind: 'updated' } : { kind: 'changed' };
}

/** A client that does not know the leader epoch sends this, and is not checked (KIP-320). */
export const NO_LEADER_EPOCH = -1;

/**
 * The check of a request's `current_leader_epoch` against the partition's (KIP-320): an older
 * one is FENCED_LEADER_EPOCH (the client's metadata is stale), a newer one UNKNOWN_LEADER_EPOCH
 * (this broker is behind); both make clients refresh their metadata and retry.
 */
export function leaderEpochError(partitionEpoch: number, requestedEpoch: number): number {
  if (requestedEpoch === NO_LEADER_EPOCH || requestedEpoch === partitionEpoch) return ErrorCode.NONE;
  return requestedEpoch < partitionEpoch ? ErrorCode.FENCED_LEADER_EPOCH : ErrorCode.UNKNOWN_LEADER_EPOCH;
}
