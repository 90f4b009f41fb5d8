import { ErrorCode } from '../../errors/error-codes';
import { CreateAcls } from '../../messages/apis/create-acls';
import { DeleteAcls } from '../../messages/apis/delete-acls';
import { DescribeAcls } from '../../messages/apis/describe-acls';
import { type AdminItemFailure, AdminItemsError, brokerError } from '../admin-error';
import type { Client } from '../client';
import {
  ACL_OPERATION_IDS,
  ACL_PATTERN_TYPE_IDS,
  ACL_PERMISSION_IDS,
  ACL_RESOURCE_TYPE_IDS,
  type AclBinding,
  type AclBindingFilter,
  aclNameOf,
} from './acl-types';

/** An ACL or a filter as the ACL APIs carry it. */
interface WireAcl {
  resourceType: number;
  resourceName: string;
  patternType: number;
  principal: string;
  host: string;
  operation: number;
  permissionType: number;
}

/**
 * Creates ACLs (CreateAcls). Any broker can answer: ACLs are cluster metadata. Throws an
 * {@link AdminItemsError} naming the ACLs that were refused; the others were created.
 */
export async function createAcls(client: Client, bindings: readonly AclBinding[]): Promise<void> {
  if (bindings.length === 0) return;
  const response = await client.retry(() =>
    client.send('any', CreateAcls, {
      creations: bindings.map((binding) => {
        const wire = bindingToWire(binding);
        return {
          resourceType: wire.resourceType,
          resourceName: wire.resourceName,
          resourcePatternType: wire.patternType,
          principal: wire.principal,
          host: wire.host,
          operation: wire.operation,
          permissionType: wire.permissionType,
        };
      }),
    }),
  );
  const failures: AdminItemFailure[] = [];
  response.results.forEach((result, index) => {
    if (result.errorCode === ErrorCode.NONE) return;
    failures.push({
      item: describeBinding(bindings[index]!),
      error: brokerError(result.errorCode, result.errorMessage, 'The ACL was not created.'),
    });
  });
  if (failures.length > 0) throw new AdminItemsError('createAcls', failures, bindings.length);
}

/** The ACLs a filter selects (DescribeAcls). */
export async function describeAcls(client: Client, filter: AclBindingFilter): Promise<AclBinding[]> {
  const wire = filterToWire(filter);
  const response = await client.retry(() =>
    client.send('any', DescribeAcls, {
      resourceTypeFilter: wire.resourceType,
      resourceNameFilter: wire.resourceName,
      patternTypeFilter: wire.patternType,
      principalFilter: wire.principal,
      hostFilter: wire.host,
      operation: wire.operation,
      permissionType: wire.permissionType,
    }),
  );
  if (response.errorCode !== ErrorCode.NONE) {
    throw brokerError(response.errorCode, response.errorMessage, 'The ACLs could not be described.');
  }
  return response.resources.flatMap((resource) =>
    resource.acls.map((acl) =>
      bindingFromWire({
        resourceType: resource.resourceType,
        resourceName: resource.resourceName,
        patternType: resource.patternType,
        principal: acl.principal,
        host: acl.host,
        operation: acl.operation,
        permissionType: acl.permissionType,
      }),
    ),
  );
}

/**
 * Deletes every ACL the filters select (DeleteAcls); per filter, the ACLs it deleted. Throws an
 * {@link AdminItemsError} for filters the broker refused.
 */
export async function deleteAcls(
  client: Client,
  filters: readonly AclBindingFilter[],
): Promise<AclBinding[][]> {
  if (filters.length === 0) return [];
  const response = await client.retry(() =>
    client.send('any', DeleteAcls, {
      filters: filters.map((filter) => {
        const wire = filterToWire(filter);
        return {
          resourceTypeFilter: wire.resourceType,
          resourceNameFilter: wire.resourceName,
          patternTypeFilter: wire.patternType,
          principalFilter: wire.principal,
          hostFilter: wire.host,
          operation: wire.operation,
          permissionType: wire.permissionType,
        };
      }),
    }),
  );
  const failures: AdminItemFailure[] = [];
  const deleted = response.filterResults.map((result, index) => {
    if (result.errorCode !== ErrorCode.NONE) {
      failures.push({
        item: `filter ${index + 1}`,
        error: brokerError(result.errorCode, result.errorMessage, 'The ACLs were not deleted.'),
      });
      return [];
    }
    return result.matchingAcls.map((acl) => bindingFromWire(acl));
  });
  if (failures.length > 0) throw new AdminItemsError('deleteAcls', failures, filters.length);
  return deleted;
}

/** `ALLOW User:alice READ TOPIC orders (LITERAL) from *`, for errors and listings. */
export function describeBinding(binding: AclBinding): string {
  return `${binding.permission} ${binding.principal} ${binding.operation} ${binding.resourceType} ${binding.resourceName} (${binding.patternType}) from ${binding.host}`;
}

function bindingToWire(binding: AclBinding): WireAcl {
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

function filterToWire(filter: AclBindingFilter): Omit<WireAcl, 'resourceName' | 'principal' | 'host'> & {
  resourceName: string | null;
  principal: string | null;
  host: string | null;
} {
  return {
    resourceType: ACL_RESOURCE_TYPE_IDS[filter.resourceType],
    resourceName: filter.resourceName,
    patternType: ACL_PATTERN_TYPE_IDS[filter.patternType],
    principal: filter.principal,
    host: filter.host,
    operation: ACL_OPERATION_IDS[filter.operation],
    permissionType: ACL_PERMISSION_IDS[filter.permission],
  };
}

/** A binding the broker reported; an id this SDK does not know is a broker bug, so it throws. */
function bindingFromWire(wire: WireAcl): AclBinding {
  const resourceType = aclNameOf(ACL_RESOURCE_TYPE_IDS, wire.resourceType);
  const patternType = aclNameOf(ACL_PATTERN_TYPE_IDS, wire.patternType);
  const operation = aclNameOf(ACL_OPERATION_IDS, wire.operation);
  const permission = aclNameOf(ACL_PERMISSION_IDS, wire.permissionType);
  if (
    resourceType === undefined ||
    resourceType === 'ANY' ||
    (patternType !== 'LITERAL' && patternType !== 'PREFIXED') ||
    operation === undefined ||
    operation === 'ANY' ||
    permission === undefined ||
    permission === 'ANY'
  ) {
    throw new Error(`the broker reported an ACL with ids Weir does not know: ${JSON.stringify(wire)}`);
  }
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
