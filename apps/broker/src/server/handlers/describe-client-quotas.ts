import { DescribeClientQuotas } from '@weir/protocol';
import { entityPairs } from '../../quotas/quota-entity';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../answers/top-level-error';
import { type ApiHandler, defineHandler } from '../handler';

const RULES = API_ACL_RULES.DescribeClientQuotas;

/**
 * DescribeClientQuotas up to `maxVersion` (KIP-546): the stored quotas a filter selects. Needs
 * DESCRIBE_CONFIGS on the cluster (CLUSTER_AUTHORIZATION_FAILED otherwise); a bad filter is
 * INVALID_REQUEST with a message naming what is wrong, and an error answer carries null entries.
 */
function describeClientQuotasUpTo(maxVersion: number): ApiHandler<typeof DescribeClientQuotas> {
  return defineHandler({
    api: DescribeClientQuotas,
    versions: { min: 0, max: maxVersion },
    async handle(request, context, services) {
      if (!context.access.allows(RULES.cluster)) {
        return { throttleTimeMs: 0, ...deniedError(RULES.cluster), entries: null };
      }
      let records: ReturnType<typeof services.quotas.describe>;
      try {
        records = services.quotas.describe(request.components, request.strict);
      } catch (error) {
        return { throttleTimeMs: 0, ...context.failure(error), entries: null };
      }
      return {
        throttleTimeMs: 0,
        ...NO_ERROR,
        entries: records.map((record) => ({
          entity: entityPairs(record.entity),
          values: Object.entries(record.values).map(([key, value]) => ({ key, value })),
        })),
      };
    },
  });
}

/** The internal listener's: v0–1 (v1 is flexible, which only the client listener must avoid). */
export const describeClientQuotasHandler = describeClientQuotasUpTo(1);

/** The client listener's: v0, since it advertises no flexible version but ApiVersions v3. */
export const clientDescribeClientQuotasHandler = describeClientQuotasUpTo(0);
