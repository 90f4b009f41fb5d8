import type {
  PermissionReasonView,
  ResourcePermissionsView,
} from '../../../../server/api/schemas/effective-permissions';
import type { resourceTypes } from './effective-params';

type ResourceType = (typeof resourceTypes)[number];

export type PermissionFilters = {
  /** Only this resource type; null for all. */
  type: ResourceType | null;
  /** A case-insensitive part of the resource name. */
  search: string;
  /** Only resources where at least one operation is allowed. */
  onlyAllowed: boolean;
};

/** The resources that pass the filters, in the broker's order. */
export function filterResources(
  resources: readonly ResourcePermissionsView[],
  filters: PermissionFilters,
): ResourcePermissionsView[] {
  const needle = filters.search.trim().toLowerCase();
  return resources.filter(
    (resource) =>
      (filters.type === null || resource.resourceType === filters.type) &&
      (needle === '' || resource.resourceName.toLowerCase().includes(needle)) &&
      (!filters.onlyAllowed || resource.operations.some((verdict) => verdict.allowed)),
  );
}

/** Section titles per resource type, in the order the view shows them. */
export const RESOURCE_TYPE_TITLES: Readonly<Record<ResourceType, string>> = {
  CLUSTER: 'Cluster',
  TOPIC: 'Topics',
  GROUP: 'Consumer groups',
  TRANSACTIONAL_ID: 'Transactional ids',
};

/** Why a verdict is what it is, in words (the broker's reason codes). */
export const REASON_TEXT: Readonly<Record<PermissionReasonView, string>> = {
  SUPER_USER: 'a super user: ACLs are not consulted',
  DENY_ACL: 'a DENY ACL covers it, and DENY wins',
  ALLOW_ACL: 'an ALLOW ACL applies and no DENY does',
  NO_ACL_FOUND: 'no ACL names the resource, so allow.everyone.if.no.acl.found decides',
  NO_MATCHING_ALLOW: 'ACLs name the resource, but none allows this principal the operation',
};
