import { aclBindingFromWire, CreateAcls } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.CreateAcls;

/**
 * CreateAcls v0–1 (v2 is flexible). One result per creation, in order: invalid ones get
 * INVALID_REQUEST with the reason, the valid ones are stored together and durable when answered.
 * Needs ALTER on the cluster; without, every creation gets CLUSTER_AUTHORIZATION_FAILED.
 */
export const createAclsHandler = defineHandler({
  api: CreateAcls,
  versions: { min: 0, max: 1 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.cluster)) {
      return {
        throttleTimeMs: 0,
        results: request.creations.map(() => ({ errorCode: RULES.cluster.denied, errorMessage: null })),
      };
    }
    const results = await services.acls.createAcls(
      request.creations.map(({ resourcePatternType, ...creation }) =>
        aclBindingFromWire({ ...creation, patternType: resourcePatternType }),
      ),
    );
    return { throttleTimeMs: 0, results: results.map((result) => context.errorOf(result)) };
  },
});
