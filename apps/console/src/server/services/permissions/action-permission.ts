/*
 * The verdicts behind `allowedActions`. Each resource has one policy function (topic-permissions.ts,
 * group-permissions.ts) that both the read models and the mutations call, so the UI disables
 * exactly what the server would refuse. When ACLs arrive they plug into those functions, which
 * is why the functions take the resource as a whole rather than one flag.
 */

/** Whether an action is allowed now, and if not, why, in words for the person who asked. */
export interface ActionPermission {
  readonly allowed: boolean;
  /** Null when allowed. */
  readonly reason: string | null;
}

export const ALLOWED: ActionPermission = { allowed: true, reason: null };

export function denied(reason: string): ActionPermission {
  return { allowed: false, reason };
}

/** Throws the resource's refusal when the verdict denies the action. */
export function requireAllowed(permission: ActionPermission, refusal: (reason: string) => Error): void {
  if (!permission.allowed) throw refusal(permission.reason ?? 'This action is not allowed.');
}
