import {
  ACL_OPERATION_IDS,
  ACL_PATTERN_TYPE_IDS,
  ACL_PERMISSION_IDS,
  ACL_RESOURCE_TYPE_IDS,
  type AclBindingFilter,
  type AclFilterWire,
  aclNameOf,
} from '@weir/protocol';

/** A DescribeAcls or DeleteAcls filter, or undefined when an id is unknown. */
export function filterFromWire(wire: AclFilterWire): AclBindingFilter | undefined {
  const resourceType = aclNameOf(ACL_RESOURCE_TYPE_IDS, wire.resourceTypeFilter);
  const patternType = aclNameOf(ACL_PATTERN_TYPE_IDS, wire.patternTypeFilter);
  const operation = aclNameOf(ACL_OPERATION_IDS, wire.operation);
  const permission = aclNameOf(ACL_PERMISSION_IDS, wire.permissionType);
  if (!resourceType || !patternType || !operation || !permission) return undefined;
  return {
    resourceType,
    resourceName: wire.resourceNameFilter,
    patternType,
    principal: wire.principalFilter,
    host: wire.hostFilter,
    operation,
    permission,
  };
}
