import { ErrorCode, WeirError } from '@weir/protocol';
import { type AclPolicyView, withAcls } from './acl-policy';
import { type ActionPermission, ALLOWED, denied, requireAllowed } from './action-permission';

/** What the policy knows about a group. */
export interface GroupFacts {
  readonly groupId: string;
  readonly memberCount: number;
}

export type GroupAction = 'resetOffsets' | 'delete';

export type GroupAllowedActions = Record<GroupAction, ActionPermission>;

function members(count: number): string {
  return count === 1 ? '1 member' : `${count} members`;
}

/**
 * The group policy. Kafka only lets the offsets of an empty group change (a live member would
 * overwrite them with its next commit) and only deletes an empty group, so both wait for the
 * consumers to stop; in login mode the principal's ACLs narrow them further.
 */
export function groupAllowedActions(group: GroupFacts, acl?: AclPolicyView | null): GroupAllowedActions {
  const has = `${group.groupId} has ${members(group.memberCount)}`;
  const empty = group.memberCount === 0;
  // OffsetCommit needs READ on the group (and on each topic, which the broker checks per topic).
  return {
    resetOffsets: withAcls(
      empty
        ? ALLOWED
        : denied(`${has}; offsets can only be reset while it is empty. Stop its consumers first.`),
      acl,
      [['READ', 'GROUP', group.groupId]],
    ),
    delete: withAcls(
      empty ? ALLOWED : denied(`${has}; only an empty group can be deleted. Stop its consumers first.`),
      acl,
      [['DELETE', 'GROUP', group.groupId]],
    ),
  };
}

/** Refuses with Kafka's own code for the case, NON_EMPTY_GROUP, so clients see what the broker would say. */
export function requireGroupAction(group: GroupFacts, action: GroupAction): void {
  requireAllowed(
    groupAllowedActions(group)[action],
    (reason) => new WeirError(ErrorCode.NON_EMPTY_GROUP, { detail: reason }),
  );
}
