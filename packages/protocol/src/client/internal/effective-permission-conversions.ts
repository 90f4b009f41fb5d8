import type { WeirDescribeEffectivePermissions } from '../../messages/apis/internal/weir-describe-effective-permissions';
import type { ResponseOf } from '../../schema/api';
import type { AclBinding } from '../acl/acl-types';
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
    resourceType: resource.resourceType as ResourcePermissions['resourceType'],
    resourceName: resource.resourceName,
    patternType: resource.patternType as ResourcePermissions['patternType'],
    exists: resource.exists,
    operations: resource.operations.map((verdict) => ({
      operation: verdict.operation as AclBinding['operation'],
      allowed: verdict.allowed,
      reason: verdict.reason as PermissionReason,
      acls: verdict.acls.map(aclFrom),
    })),
  };
}

function aclFrom(acl: WireAcl): AclBinding {
  return {
    resourceType: acl.resourceType as AclBinding['resourceType'],
    resourceName: acl.resourceName,
    patternType: acl.patternType as AclBinding['patternType'],
    principal: acl.principal,
    host: acl.host,
    operation: acl.operation as AclBinding['operation'],
    permission: acl.permission as AclBinding['permission'],
  };
}
