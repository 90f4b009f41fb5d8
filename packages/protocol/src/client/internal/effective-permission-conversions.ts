import type { WeirDescribeEffectivePermissions } from '../../messages/apis/internal/weir-describe-effective-permissions';
import type { ResponseOf } from '../../schema/api';
import type {
  AclBinding,
  AclOperation,
  AclPatternType,
  AclPermission,
  AclResourceType,
} from '../acl/acl-types';
import type {
  EffectivePermissions,
  PermissionReason,
  ResourcePermissions,
} from './effective-permission-types';

/*
 * Wire → contract for WeirDescribeEffectivePermissions. The wire carries Kafka's names as strings
 * (the broker writes them from its own typed values), so they are narrowed here, not re-checked.
 */

type Response = ResponseOf<typeof WeirDescribeEffectivePermissions>;
type WireResource = Response['resources'][number];
type WireAcl = WireResource['operations'][number]['acls'][number];

export function effectivePermissionsFrom(response: Response): EffectivePermissions {
  return {
    principal: response.principal,
    host: response.host,
    superUser: response.superUser,
    allowEveryoneIfNoAclFound: response.allowEveryoneIfNoAclFound,
    resources: response.resources.map(resourceFrom),
  };
}

function resourceFrom(resource: WireResource): ResourcePermissions {
  return {
    ...patternFrom(resource),
    exists: resource.exists,
    operations: resource.operations.map((verdict) => ({
      operation: verdict.operation as AclOperation,
      allowed: verdict.allowed,
      reason: verdict.reason as PermissionReason,
      acls: verdict.acls.map(aclFrom),
    })),
  };
}

function aclFrom(acl: WireAcl): AclBinding {
  return {
    ...patternFrom(acl),
    principal: acl.principal,
    host: acl.host,
    operation: acl.operation as AclOperation,
    permission: acl.permission as AclPermission,
  };
}

/** The resource pattern a resource entry and an ACL both start with. */
function patternFrom(
  wire: WireResource | WireAcl,
): Pick<AclBinding, 'resourceType' | 'resourceName' | 'patternType'> {
  return {
    resourceType: wire.resourceType as AclResourceType,
    resourceName: wire.resourceName,
    patternType: wire.patternType as AclPatternType,
  };
}
