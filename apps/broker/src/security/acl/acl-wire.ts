import {
  ACL_OPERATION_IDS,
  ACL_PATTERN_TYPE_IDS,
  ACL_PERMISSION_IDS,
  ACL_RESOURCE_TYPE_IDS,
  type AclBinding,
  type AclBindingFilter,
  type AclOperation,
  type AclPatternType,
  type AclPermission,
  type AclResourceType,
  aclNameOf,
} from '@weir/protocol';
import type { AclCreation } from './acl-commands';

/** The ids of an ACL or a filter as the ACL APIs carry them. */
export interface WireAcl {
  resourceType: number;
  resourceName: string | null;
  patternType: number;
  principal: string | null;
  host: string | null;
  operation: number;
  permissionType: number;
}

/** A CreateAcls entry as a binding, or why it is not one (ANY, MATCH and unknown ids are refused). */
export function creationFromWire(wire: WireAcl): AclCreation {
  const resourceType = aclNameOf(ACL_RESOURCE_TYPE_IDS, wire.resourceType);
  const patternType = aclNameOf(ACL_PATTERN_TYPE_IDS, wire.patternType);
  const operation = aclNameOf(ACL_OPERATION_IDS, wire.operation);
  const permission = aclNameOf(ACL_PERMISSION_IDS, wire.permissionType);
  if (resourceType === undefined || resourceType === 'ANY') return { problem: 'invalid resource type' };
  if (patternType !== 'LITERAL' && patternType !== 'PREFIXED') return { problem: 'invalid pattern type' };
  if (operation === undefined || operation === 'ANY') return { problem: 'invalid operation' };
  if (permission === undefined || permission === 'ANY') return { problem: 'invalid permission type' };
  return {
    binding: {
      resourceType,
      resourceName: wire.resourceName ?? '',
      patternType,
      principal: wire.principal ?? '',
      host: wire.host ?? '',
      operation,
      permission,
    },
  };
}

/** A DescribeAcls or DeleteAcls filter, or undefined when an id is unknown. */
export function filterFromWire(wire: WireAcl): AclBindingFilter | undefined {
  const resourceType = aclNameOf(ACL_RESOURCE_TYPE_IDS, wire.resourceType);
  const patternType = aclNameOf(ACL_PATTERN_TYPE_IDS, wire.patternType);
  const operation = aclNameOf(ACL_OPERATION_IDS, wire.operation);
  const permission = aclNameOf(ACL_PERMISSION_IDS, wire.permissionType);
  if (!resourceType || !patternType || !operation || !permission) return undefined;
  return {
    resourceType,
    resourceName: wire.resourceName,
    patternType,
    principal: wire.principal,
    host: wire.host,
    operation,
    permission,
  };
}

/** A stored binding's ids. */
export function bindingToWire(binding: AclBinding): {
  resourceType: number;
  resourceName: string;
  patternType: number;
  principal: string;
  host: string;
  operation: number;
  permissionType: number;
} {
  return {
    resourceType: ACL_RESOURCE_TYPE_IDS[binding.resourceType satisfies AclResourceType],
    resourceName: binding.resourceName,
    patternType: ACL_PATTERN_TYPE_IDS[binding.patternType satisfies AclPatternType],
    principal: binding.principal,
    host: binding.host,
    operation: ACL_OPERATION_IDS[binding.operation satisfies AclOperation],
    permissionType: ACL_PERMISSION_IDS[binding.permission satisfies AclPermission],
  };
}
