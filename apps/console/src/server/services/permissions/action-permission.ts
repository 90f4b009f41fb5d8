/*
 * The verdicts behind `allowedActions`. Each resource has one policy function (topic-permissions.ts,
 * group-permissions.ts) that both the read models and the mutations call, so the UI disables
 * exactly what the server would refuse. When ACLs arrive they plug into those functions, which
 * is why the functions take the resource as a whole rather than one flag.
 */

/**
 * What stands in the way of a denied action: `acl` when the principal's ACLs never let them do it
 * (the UI leaves the control out and says why), `state` when the resource's state forbids it now
 * (an internal topic, a group with members: the UI keeps the control, disabled, with the reason).
 */
export type DeniedBy = 'acl' | 'state';

/** Whether an action is allowed now, and if not, why, in words for the person who asked. */
export interface ActionPermission {
  readonly allowed: boolean;
  /** Null when allowed. */
  readonly reason: string | null;
  /** Null when allowed. */
  readonly deniedBy: DeniedBy | null;
}

export const ALLOWED: ActionPermission = { allowed: true, reason: null, deniedBy: null };

/** A denial; by default one of the resource's state (ACL denials come from `withAcls`). */
export function denied(reason: string, deniedBy: DeniedBy = 'state'): ActionPermission {
  return { allowed: false, reason, deniedBy };
}

/** Throws the resource's refusal when the verdict denies the action. */
export function requireAllowed(permission: ActionPermission, refusal: (reason: string) => Error): void {
  if (!permission.allowed) throw refusal(permission.reason ?? 'This action is not allowed.');
}
