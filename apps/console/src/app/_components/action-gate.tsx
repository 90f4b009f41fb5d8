import type { ReactNode } from 'react';
import type { ActionPermissionView } from '../../server/api/schemas/common';

/** Whether the principal's ACLs deny the action, so the UI should not offer it at all. */
export function deniedByAcl(permission: ActionPermissionView | undefined): boolean {
  return permission?.deniedBy === 'acl';
}

type ActionGateProps = {
  /** From the resource's `allowedActions`; undefined while the resource is being read. */
  permission: ActionPermissionView | undefined;
  /** The action's control; it handles the other denials itself (disabled, with the reason). */
  children: ReactNode;
};

/**
 * Offers an action only to someone who may ever perform it. When the principal's ACLs deny it,
 * the control is left out and one muted line in its place says why, so a read-only user sees no
 * destructive buttons but still learns what they lack. Denials caused by the resource's state (an
 * internal topic, a group with members) render the children: those controls stay visible,
 * disabled, with the reason, because the action becomes possible once the state changes.
 */
export function ActionGate({ permission, children }: ActionGateProps) {
  if (permission !== undefined && deniedByAcl(permission)) return <AclDeniedNote permission={permission} />;
  return children;
}

/** The muted line that stands in for an action the principal's ACLs deny. */
export function AclDeniedNote({ permission }: { permission: ActionPermissionView }) {
  return (
    <span role="note" data-denied-by="acl" className="max-w-xs text-xs text-zinc-500 dark:text-zinc-400">
      {permission.reason ?? 'Your ACLs do not allow this action.'}
    </span>
  );
}
