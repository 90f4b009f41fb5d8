import {
  ACL_OPERATION_IDS,
  ACL_PATTERN_TYPE_IDS,
  ACL_PERMISSION_IDS,
  ACL_RESOURCE_TYPE_IDS,
  type AclBinding,
  aclNameOf,
} from './acl-types';

/**
 * One ACL as the ACL APIs carry it: Kafka's ids beside the names. DeleteAcls answers with this
 * shape; CreateAcls calls the pattern type `resourcePatternType`, and DescribeAcls splits it into
 * the resource pattern and the ACLs under it.
 */
export interface AclBindingWire {
  resourceType: number;
  resourceName: string;
  patternType: number;
  principal: string;
  host: string;
  operation: number;
  permissionType: number;
}

/**
 * A DescribeAcls request or a DeleteAcls filter: which ACLs it selects, as ids. Null names match
 * every name, as in an `AclBindingFilter`.
 */
export interface AclFilterWire {
  resourceTypeFilter: number;
  resourceNameFilter: string | null;
  patternTypeFilter: number;
  principalFilter: string | null;
  hostFilter: string | null;
  operation: number;
  permissionType: number;
}

/** A binding as the broker's answers and the client's creations carry it. */
export function aclBindingToWire(binding: AclBinding): AclBindingWire {
  return {
    resourceType: ACL_RESOURCE_TYPE_IDS[binding.resourceType],
    resourceName: binding.resourceName,
    patternType: ACL_PATTERN_TYPE_IDS[binding.patternType],
    principal: binding.principal,
    host: binding.host,
    operation: ACL_OPERATION_IDS[binding.operation],
    permissionType: ACL_PERMISSION_IDS[binding.permission],
  };
}

/**
 * The binding the ids name, or the first reason they name none: ANY and MATCH select ACLs but are
 * not one, and an id Weir does not know names nothing. The broker answers a CreateAcls entry with
 * the reason; the client treats one in the broker's answer as a broker bug.
 */
export function aclBindingFromWire(wire: AclBindingWire): { binding: AclBinding } | { problem: string } {
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
      resourceName: wire.resourceName,
      patternType,
      principal: wire.principal,
      host: wire.host,
      operation,
      permission,
    },
  };
}
