import { AlterClientQuotas } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../answers/top-level-error';
import { type ApiHandler, defineHandler } from '../handler';

const RULES = API_ACL_RULES.AlterClientQuotas;

/**
 * AlterClientQuotas up to `maxVersion` (KIP-546): sets and removes quota values per entity, each
 * entry answered on its own (INVALID_REQUEST naming an unknown key or entity type, a value that is
 * not positive, an entity altered twice). Needs ALTER_CONFIGS on the cluster; without, every entry
 * is CLUSTER_AUTHORIZATION_FAILED and nothing changes. With validate_only nothing is written.
 */
function alterClientQuotasUpTo(maxVersion: number): ApiHandler<typeof AlterClientQuotas> {
  return defineHandler({
    api: AlterClientQuotas,
    versions: { min: 0, max: maxVersion },
    async handle(request, context, services) {
      if (!context.access.allows(RULES.cluster)) {
        const denied = deniedError(RULES.cluster);
        return {
          throttleTimeMs: 0,
          entries: request.entries.map((entry) => ({ ...denied, entity: entry.entity })),
        };
      }
      const results = await services.quotas.alter(request.entries, request.validateOnly);
      return {
        throttleTimeMs: 0,
        entries: request.entries.map((entry, index) => {
          const result = results[index]!;
          return { ...(result.ok ? NO_ERROR : context.errorOf(result)), entity: entry.entity };
        }),
      };
    },
  });
}

/** The internal listener's: v0–1 (v1 is flexible, which only the client listener must avoid). */
export const alterClientQuotasHandler = alterClientQuotasUpTo(1);

/** The client listener's: v0, since it advertises no flexible version but ApiVersions v3. */
export const clientAlterClientQuotasHandler = alterClientQuotasUpTo(0);
