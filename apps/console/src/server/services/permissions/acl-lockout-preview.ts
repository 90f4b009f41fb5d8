import type { AclBinding, EffectivePermissionsApi, InternalAdmin } from '@weir/protocol';
import { ACL_WILDCARD_PRINCIPAL } from '@weir/protocol/names';
import type { AclLockout } from '../../api/schemas/acl-intents';
import type { AclBindingView } from '../../api/schemas/acls';
import type { EffectivePermissionsView } from '../../api/schemas/effective-permissions';
import { describeEffectivePermissions } from '../effective-permissions';
import { lockoutOf } from './acl-lockout';
import { matchesResource } from './acl-policy';

/*
 * The lockout warning of an ACL intent's preview: who loses access once its new ACLs exist,
 * computed from the broker's own effective permissions (acl-lockout.ts has the rule). The broker
 * does not know every principal that may connect (a client certificate or a token names one the
 * broker has no record of), so the principals considered are those it knows: its SASL users and
 * every principal an ACL names, the grantee included.
 */

/** How many principals one preview asks the broker about (one request each). */
export const MAX_LOCKOUT_PRINCIPALS = 200;

/** How many of those requests are in flight at once. */
const LOOKUPS_IN_FLIGHT = 8;

export interface LockoutSources {
  readonly users: Pick<InternalAdmin, 'listUsers'>;
  readonly permissions: EffectivePermissionsApi;
  readonly now: () => number;
}

/** `User:<name>` of every SASL user and every principal an ACL names, without `User:*`, sorted. */
export function knownPrincipals(usernames: readonly string[], acls: readonly AclBinding[]): string[] {
  const principals = new Set(usernames.map((name) => `User:${name}`));
  for (const acl of acls) principals.add(acl.principal);
  principals.delete(ACL_WILDCARD_PRINCIPAL);
  return [...principals].sort((a, b) => a.localeCompare(b));
}

/**
 * Whether one of `created` covers a resource that no ACL names now. That is a property of the
 * resource, the same in every principal's view (NO_ACL_FOUND), so one view that is not a super
 * user's answers it for all.
 */
export function closesAnOpenResource(
  view: EffectivePermissionsView,
  created: readonly AclBindingView[],
): boolean {
  return view.resources.some(
    (resource) =>
      resource.operations.some((verdict) => verdict.reason === 'NO_ACL_FOUND') &&
      created.some((binding) => matchesResource(binding, resource.resourceType, resource.resourceName)),
  );
}

/**
 * Who loses what once `created` (the intent's ACLs the broker does not have yet) exist. The
 * grantee's view comes first: it tells whether the broker allows everyone where no ACL is found
 * (if not, creating ACLs takes nothing from anyone) and, unless the grantee is a super user,
 * whether any new ACL closes an open resource at all; only then are the other principals asked.
 */
export async function previewLockout(
  sources: LockoutSources,
  existing: readonly AclBinding[],
  created: readonly AclBindingView[],
  grantee: string,
): Promise<AclLockout> {
  const viewOf = (principal: string) =>
    describeEffectivePermissions(sources.permissions, { principal, host: '*' }, sources.now);
  const granteeView = await viewOf(grantee);
  const quiet = (principalsChecked: string[]): AclLockout => ({
    allowEveryoneIfNoAclFound: granteeView.allowEveryoneIfNoAclFound,
    principalsChecked,
    principalsUnchecked: 0,
    entries: [],
  });
  if (created.length === 0 || !granteeView.allowEveryoneIfNoAclFound) return quiet([]);
  if (!granteeView.superUser && !closesAnOpenResource(granteeView, created)) return quiet([grantee]);

  const users = await sources.users.listUsers();
  const others = knownPrincipals(
    users.map((user) => user.name),
    existing,
  ).filter((principal) => principal !== grantee);
  const checked = others.slice(0, MAX_LOCKOUT_PRINCIPALS - 1);
  const views: EffectivePermissionsView[] = [granteeView];
  for (let start = 0; start < checked.length; start += LOOKUPS_IN_FLIGHT) {
    views.push(...(await Promise.all(checked.slice(start, start + LOOKUPS_IN_FLIGHT).map(viewOf))));
  }
  return {
    allowEveryoneIfNoAclFound: true,
    principalsChecked: [grantee, ...checked].sort((a, b) => a.localeCompare(b)),
    principalsUnchecked: others.length - checked.length,
    entries: lockoutOf(views, created)
      .map((entry) => ({ ...entry, grantee: entry.principal === grantee }))
      .sort((a, b) => a.principal.localeCompare(b.principal)),
  };
}
