import { Fragment, type ReactNode } from 'react';
import type { ActionPermissionView } from '../../server/api/schemas/common';

/** Whether the principal's ACLs deny the action, so the UI should not offer it at all. */
export function deniedByAcl(permission: ActionPermissionView | undefined): boolean {
  return permission?.deniedBy === 'acl';
}

/** What the line says when the server gave no reason. */
const fallbackReason = 'Your ACLs do not allow this action.';

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
      {permission.reason ?? fallbackReason}
    </span>
  );
}

/** One of several actions offered in one place, e.g. the buttons of a page header. */
export type GatedAction = {
  /** The ACL operation the action needs, e.g. `WRITE`; the compact note names it. One per place. */
  operation: string;
  /** From the resource's `allowedActions`; undefined while the resource is being read. */
  permission: ActionPermissionView | undefined;
  /** The action's control, gated as by `ActionGate`. */
  control: ReactNode;
};

type ActionGatesProps = {
  /** The resource the actions act on, as the compact note names it, e.g. the topic's name. */
  resource: string;
  actions: readonly GatedAction[];
};

/**
 * Several actions in one place, each gated as by `ActionGate`. When the principal's ACLs deny two
 * or more of them, one compact line stands in for all of those instead of a long line each; the
 * full reasons stay in its title (on hover) and in its text for screen readers.
 */
export function ActionGates({ resource, actions }: ActionGatesProps) {
  const denied = actions.filter((action) => deniedByAcl(action.permission));
  if (denied.length < 2) {
    return actions.map((action) => (
      <ActionGate key={action.operation} permission={action.permission}>
        {action.control}
      </ActionGate>
    ));
  }
  return (
    <>
      {actions
        .filter((action) => !deniedByAcl(action.permission))
        .map((action) => (
          <Fragment key={action.operation}>{action.control}</Fragment>
        ))}
      <AclDeniedSummary
        resource={resource}
        readOnly={denied.length === actions.length}
        denials={denied.map((action) => ({
          operation: action.operation,
          reason: action.permission?.reason ?? fallbackReason,
        }))}
      />
    </>
  );
}

type AclDenial = { operation: string; reason: string };

/**
 * The compact line's visible text: "Read-only: no WRITE, DELETE on orders" when every action in
 * the place is denied, else "Not allowed: WRITE, DELETE on orders".
 */
export function aclDenialSummary(resource: string, operations: readonly string[], readOnly: boolean): string {
  return `${readOnly ? 'Read-only: no' : 'Not allowed:'} ${operations.join(', ')} on ${resource}`;
}

function AclDeniedSummary({
  resource,
  readOnly,
  denials,
}: {
  resource: string;
  readOnly: boolean;
  denials: readonly AclDenial[];
}) {
  const reasons = denials.map((denial) => denial.reason);
  return (
    <span
      role="note"
      data-denied-by="acl"
      title={reasons.join('\n')}
      className="inline-flex items-center gap-1 text-xs text-zinc-500 dark:text-zinc-400"
    >
      <svg
        viewBox="0 0 16 16"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinecap="round"
        aria-hidden="true"
        className="size-3.5 shrink-0"
      >
        <rect x="3" y="7" width="10" height="7" rx="1.5" />
        <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" />
      </svg>
      {aclDenialSummary(
        resource,
        denials.map((denial) => denial.operation),
        readOnly,
      )}
      <span className="sr-only">. {reasons.join(' ')}</span>
    </span>
  );
}
