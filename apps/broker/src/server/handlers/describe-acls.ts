import { type AclBindingWire, aclBindingToWire, DescribeAcls, ErrorCode } from '@weir/protocol';
import { filterFromWire } from '../../security/acl/acl-wire';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.DescribeAcls;

/**
 * DescribeAcls v0–1 (v2 is flexible; kafkajs and librdkafka 2.0 send at most v1). The ACLs the
 * filter selects, grouped by resource pattern. v0 has no pattern type, and its default filter
 * (LITERAL) keeps PREFIXED ACLs out of an answer that could not say they are prefixed. Needs
 * DESCRIBE on the cluster.
 */
export const describeAclsHandler = defineHandler({
  api: DescribeAcls,
  versions: { min: 0, max: 1 },
  async handle(request, context, services) {
    const denied = (errorCode: number, errorMessage: string) => ({
      throttleTimeMs: 0,
      errorCode,
      errorMessage,
      resources: [],
    });
    if (!context.access.allows(RULES.cluster)) {
      return denied(RULES.cluster.denied, 'DESCRIBE on the cluster is needed to describe ACLs');
    }
    const filter = filterFromWire(request);
    if (filter === undefined) return denied(ErrorCode.INVALID_REQUEST, 'the filter has an unknown type id');
    const resources = new Map<string, AclBindingWire & { acls: AclBindingWire[] }>();
    for (const binding of services.acls.describeAcls(filter)) {
      const wire = aclBindingToWire(binding);
      const key = JSON.stringify([wire.resourceType, wire.resourceName, wire.patternType]);
      const resource = resources.get(key) ?? { ...wire, acls: [] };
      resource.acls.push(wire);
      resources.set(key, resource);
    }
    return {
      throttleTimeMs: 0,
      errorCode: ErrorCode.NONE,
      errorMessage: null,
      resources: [...resources.values()].map((resource) => ({
        resourceType: resource.resourceType,
        resourceName: resource.resourceName,
        patternType: resource.patternType,
        acls: resource.acls.map((acl) => ({
          principal: acl.principal,
          host: acl.host,
          operation: acl.operation,
          permissionType: acl.permissionType,
        })),
      })),
    };
  },
});
