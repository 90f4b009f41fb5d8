import type { AclBindingView, AclOperationView } from '../../api/schemas/acls';
import type { EffectivePermissionsView } from '../../api/schemas/effective-permissions';

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

/** Operations Kafka lets another imply (READ, WRITE, DELETE and ALTER imply DESCRIBE). */
const IMPLIED_BY: Partial<Record<string, readonly string[]>> = {
  DESCRIBE: ['READ', 'WRITE', 'DELETE', 'ALTER', 'ALL'],
  DESCRIBE_CONFIGS: ['ALTER_CONFIGS', 'ALL'],
};

function covers(binding: AclBindingView, resourceType: string, resourceName: string): boolean {
  if (binding.resourceType !== resourceType) return false;
  if (binding.resourceName === '*' && binding.patternType === 'LITERAL') return true;
  return binding.patternType === 'PREFIXED'
    ? resourceName.startsWith(binding.resourceName)
    : resourceName === binding.resourceName;
}

function grants(binding: AclBindingView, principal: string, operation: string): boolean {
  if (binding.permission !== 'ALLOW') return false;
  if (binding.principal !== principal && binding.principal !== 'User:*') return false;
  return binding.operation === operation || (IMPLIED_BY[operation] ?? []).includes(binding.operation);
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
        covers(binding, resource.resourceType, resource.resourceName),
      );
      if (touching.length === 0) continue;
      const lost = resource.operations
        .filter((verdict) => verdict.allowed && verdict.reason === 'NO_ACL_FOUND')
        .filter((verdict) => !touching.some((binding) => grants(binding, view.principal, verdict.operation)))
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
