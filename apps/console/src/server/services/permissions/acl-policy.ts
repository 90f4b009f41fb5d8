import type { AclBinding, AclOperation, AclResourceType } from '@weir/protocol';
import { ACL_WILDCARD, ACL_WILDCARD_PRINCIPAL } from '@weir/protocol/names';
import { type ActionPermission, denied } from './action-permission';

/*
 * What a logged-in principal may do, evaluated in the console from the broker's answers (its ACLs
 * and whether the principal is unrestricted), mirroring the broker's authorizer: super users may
 * do everything; otherwise the ACLs that apply to the resource (LITERAL of its name or `*`,
 * PREFIXED of a prefix of it) decide: a matching DENY wins, then a matching ALLOW (ALL matches every
 * operation, READ/WRITE/DELETE/ALTER imply DESCRIBE, ALTER_CONFIGS implies DESCRIBE_CONFIGS); a
 * resource no ACL applies to is allowed only when the broker allows everyone there. It only decides
 * what the UI offers: the requests run as the user, so the broker refuses anyway.
 */

/** The broker's answers the verdicts are computed from, read once per request. */
export interface AclPolicyView {
  /** `User:<name>`. */
  readonly principal: string;
  /** A super user (or allowed where no ACL applies): everything is offered. */
  readonly unrestricted: boolean;
  /** Whether a resource no ACL applies to is allowed (allow.everyone.if.no.acl.found). */
  readonly allowEveryoneIfNoAclFound: boolean;
  /** Every ACL of the cluster (needed to know when none applies to a resource). */
  readonly bindings: readonly AclBinding[];
}

const IMPLIED_BY: Partial<Record<AclOperation, readonly AclOperation[]>> = {
  DESCRIBE: ['DESCRIBE', 'READ', 'WRITE', 'DELETE', 'ALTER'],
  DESCRIBE_CONFIGS: ['DESCRIBE_CONFIGS', 'ALTER_CONFIGS'],
};

/** Whether the ACL applies to the resource: LITERAL of its name or `*`, PREFIXED of a prefix of it. */
export function matchesResource(acl: AclBinding, type: AclResourceType, name: string): boolean {
  if (acl.resourceType !== type) return false;
  if (acl.patternType === 'LITERAL') return acl.resourceName === name || acl.resourceName === ACL_WILDCARD;
  return acl.patternType === 'PREFIXED' && name.startsWith(acl.resourceName);
}

/**
 * Host-specific ACLs are left out: the console does not know which host the broker sees its
 * connections from as the user's (its own), and a DENY for one host should not hide actions that
 * the broker would allow (it refuses anyway when it applies).
 */
function appliesTo(acl: AclBinding, principal: string): boolean {
  return (
    (acl.principal === principal || acl.principal === ACL_WILDCARD_PRINCIPAL) && acl.host === ACL_WILDCARD
  );
}

const covers = (granted: AclOperation, wanted: AclOperation) => granted === wanted || granted === 'ALL';

/** Whether the ACL is an ALLOW that grants `operation`: the same one, ALL, or one implying it. */
export function allowGrants(acl: AclBinding, operation: AclOperation): boolean {
  const allowing = IMPLIED_BY[operation] ?? [operation];
  return acl.permission === 'ALLOW' && allowing.some((wanted) => covers(acl.operation, wanted));
}

/** Whether the principal may do `operation` on the resource, by Kafka's rules. */
export function aclAllows(
  view: AclPolicyView,
  operation: AclOperation,
  type: AclResourceType,
  name: string,
): boolean {
  if (view.unrestricted) return true;
  const matching = view.bindings.filter((acl) => matchesResource(acl, type, name));
  if (matching.length === 0) return view.allowEveryoneIfNoAclFound;
  const applicable = matching.filter((acl) => appliesTo(acl, view.principal));
  if (applicable.some((acl) => acl.permission === 'DENY' && covers(acl.operation, operation))) return false;
  return applicable.some((acl) => allowGrants(acl, operation));
}

const TYPE_WORD: Record<AclResourceType, string> = {
  TOPIC: 'topic',
  GROUP: 'group',
  CLUSTER: 'the cluster',
  TRANSACTIONAL_ID: 'transactional id',
};

/**
 * Narrows a verdict by the ACLs: an action stays as the policy says only if every operation it
 * needs is allowed; otherwise it is denied by `acl`, with a reason naming the missing operation.
 * The ACLs are checked even when the resource's state already denies the action: a principal who
 * may never do it should not be told to wait for the state to change. Without a view (no login)
 * the verdict stands.
 */
export function withAcls(
  permission: ActionPermission,
  view: AclPolicyView | null | undefined,
  needs: readonly (readonly [AclOperation, AclResourceType, string])[],
): ActionPermission {
  if (view === null || view === undefined) return permission;
  for (const [operation, type, name] of needs) {
    if (!aclAllows(view, operation, type, name)) {
      const what = type === 'CLUSTER' ? TYPE_WORD[type] : `${TYPE_WORD[type]} ${name}`;
      return denied(`${view.principal} may not ${operation} on ${what}: its ACLs do not allow it.`, 'acl');
    }
  }
  return permission;
}
