import type { EffectivePermissionsApi } from '@weir/protocol';
import type { AclBindingView } from '../api/schemas/acls';
import type {
  EffectivePermissionsInput,
  EffectivePermissionsView,
} from '../api/schemas/effective-permissions';

/**
 * What one principal may do, computed by the broker's own authorizer so the console never
 * re-implements the ACL rules. The call runs as the caller: the broker answers about others only
 * to principals with DESCRIBE on the cluster (CLUSTER_AUTHORIZATION_FAILED, a 403, otherwise).
 */
export async function describeEffectivePermissions(
  api: EffectivePermissionsApi,
  input: EffectivePermissionsInput,
  now: () => number,
): Promise<EffectivePermissionsView> {
  const answer = await api.describeEffectivePermissions(input.principal, input.host);
  return {
    asOfMs: now(),
    principal: answer.principal,
    host: answer.host,
    superUser: answer.superUser,
    allowEveryoneIfNoAclFound: answer.allowEveryoneIfNoAclFound,
    resources: answer.resources.map((resource) => ({
      resourceType: resource.resourceType,
      resourceName: resource.resourceName,
      patternType: resource.patternType,
      exists: resource.exists,
      operations: resource.operations.map((verdict) => ({
        operation: verdict.operation,
        allowed: verdict.allowed,
        reason: verdict.reason,
        acls: verdict.acls.map((acl) => ({ ...acl }) as AclBindingView),
      })),
    })),
  };
}
