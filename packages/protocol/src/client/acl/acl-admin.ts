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
} from './acl-types';
import { type AclBindingWire, type AclFilterWire, aclBindingFromWire, aclBindingToWire } from './acl-wire';

/**
 * Creates ACLs (CreateAcls). Any broker can answer: ACLs are cluster metadata. Throws an
 * {@link AdminItemsError} naming the ACLs that were refused; the others were created.
 */
export async function createAcls(client: Client, bindings: readonly AclBinding[]): Promise<void> {
  if (bindings.length === 0) return;
  const response = await client.retry(() =>
    client.send('any', CreateAcls, {
      creations: bindings.map((binding) => {
        const { patternType, ...wire } = aclBindingToWire(binding);
        return { ...wire, resourcePatternType: patternType };
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
  const response = await client.retry(() => client.send('any', DescribeAcls, filterToWire(filter)));
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
      filters: filters.map((filter) => filterToWire(filter)),
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

/** A filter as DescribeAcls and DeleteAcls carry it. */
function filterToWire(filter: AclBindingFilter): AclFilterWire {
  return {
    resourceTypeFilter: ACL_RESOURCE_TYPE_IDS[filter.resourceType],
    resourceNameFilter: filter.resourceName,
    patternTypeFilter: ACL_PATTERN_TYPE_IDS[filter.patternType],
    principalFilter: filter.principal,
    hostFilter: filter.host,
    operation: ACL_OPERATION_IDS[filter.operation],
    permissionType: ACL_PERMISSION_IDS[filter.permission],
  };
}

/** A binding the broker reported; an id this SDK does not know is a broker bug, so it throws. */
function bindingFromWire(wire: AclBindingWire): AclBinding {
  const decoded = aclBindingFromWire(wire);
  if ('problem' in decoded) {
    throw new Error(`the broker reported an ACL with ids Weir does not know: ${JSON.stringify(wire)}`);
  }
  return decoded.binding;
}
