import { ACL_WILDCARD, ACL_WILDCARD_PRINCIPAL } from '@weir/protocol/names';
import type { AclBindingView, AclOperationView } from '../../api/schemas/acls';
import type { EffectivePermissionsView } from '../../api/schemas/effective-permissions';
import { allowGrants, matchesResource } from './acl-policy';

/*
 * Who loses access when ACLs are created on a resource that has none. The broker's authorizer
 * (apps/broker/src/security/acl/authorizer.ts) answers NO_ACL_FOUND for a resource no ACL matches,
 * allowed exactly when allow.everyone.if.no.acl.found is on; once any ACL matches, a principal needs
 * an ALLOW of its own. So an operation a principal has today by NO_ACL_FOUND is lost unless the new
 * ACLs grant it to that principal. Super users are answered SUPER_USER and never lose anything.
 */

export interface LockoutEntry {
  readonly principal: string;
  readonly resourceType: AclBindingView['resourceType'];
  readonly resourceName: string;
  readonly operations: AclOperationView[];
}

/**
 * Whether the new ACL gives `principal` the operation (wildcard principal included). The views are
 * for host `*`, where only ACLs for every host apply: an ACL for one host still closes the resource
 * to everyone, but grants only connections from that host, so it keeps nobody's access everywhere.
 */
function grants(binding: AclBindingView, principal: string, operation: AclOperationView): boolean {
  if (binding.principal !== principal && binding.principal !== ACL_WILDCARD_PRINCIPAL) return false;
  return binding.host === ACL_WILDCARD && allowGrants(binding, operation);
}

/**
 * The operations each principal of `views` (the broker's effective permissions of every principal
 * the console knows) loses once `created` exist: allowed today by NO_ACL_FOUND on a resource one of
 * them covers, and not granted to that principal by them.
 */
export function lockoutOf(
  views: readonly EffectivePermissionsView[],
  created: readonly AclBindingView[],
): LockoutEntry[] {
  const entries: LockoutEntry[] = [];
  for (const view of views) {
    if (view.superUser) continue;
    for (const resource of view.resources) {
      const touching = created.filter((binding) =>
        matchesResource(binding, resource.resourceType, resource.resourceName),
      );
      if (touching.length === 0) continue;
      const lost = resource.operations
        .filter((verdict) => verdict.allowed && verdict.reason === 'NO_ACL_FOUND')
        .filter(
          (verdict) =>
            !touching.some((binding) =>
              grants(binding, view.principal, verdict.operation as AclOperationView),
            ),
        )
        .map((verdict) => verdict.operation as AclOperationView);
      if (lost.length > 0) {
        entries.push({
          principal: view.principal,
          resourceType: resource.resourceType,
          resourceName: resource.resourceName,
          operations: lost,
        });
      }
    }
  }
  return entries;
}
