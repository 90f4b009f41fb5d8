import { aclBindingToWire, DeleteAcls, ErrorCode } from '@weir/protocol';
import { filterFromWire } from '../../security/acl/acl-wire';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.DeleteAcls;

/**
 * DeleteAcls v0–1 (v2 is flexible). Every ACL any filter selects is removed in one change; each
 * filter's result lists the ACLs it selected. A filter with an unknown id gets INVALID_REQUEST and
 * removes nothing. Needs ALTER on the cluster; without, every filter gets
 * CLUSTER_AUTHORIZATION_FAILED and nothing is removed.
 */
export const deleteAclsHandler = defineHandler({
  api: DeleteAcls,
  versions: { min: 0, max: 1 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.cluster)) {
      return {
        throttleTimeMs: 0,
        filterResults: request.filters.map(() => ({
          errorCode: RULES.cluster.denied,
          errorMessage: null,
          matchingAcls: [],
        })),
      };
    }
    const filters = request.filters.map((filter) => filterFromWire(filter));
    const valid = filters.filter((filter) => filter !== undefined);
    const deletions = await services.acls.deleteAcls(valid);
    let next = 0;
    return {
      throttleTimeMs: 0,
      filterResults: filters.map((filter) => {
        if (filter === undefined) {
          return {
            errorCode: ErrorCode.INVALID_REQUEST,
            errorMessage: 'the filter has an unknown type id',
            matchingAcls: [],
          };
        }
        const deletion = deletions[next++]!;
        return {
          ...context.errorOf(deletion),
          matchingAcls: deletion.deleted.map((binding) => ({
            errorCode: ErrorCode.NONE,
            errorMessage: null,
            ...aclBindingToWire(binding),
          })),
        };
      }),
    };
  },
});
