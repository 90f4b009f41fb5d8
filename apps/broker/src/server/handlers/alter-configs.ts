import { AlterConfigs } from '@weir/protocol';
import { configResourceTypeOf } from '../../commands/config-types';
import { answerAllowed } from '../../security/acl/answer-allowed';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { configRuleFor } from '../../security/acl/config-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.AlterConfigs;

/**
 * AlterConfigs v0–1: each topic resource's listed configs replace all its overrides (unlisted
 * ones go back to their defaults); broker configs are refused as read-only. Needs ALTER_CONFIGS
 * on the topic (the cluster for the broker); a denied resource is left as it is.
 */
export const alterConfigsHandler = defineHandler({
  api: AlterConfigs,
  versions: { min: 0, max: 1 },
  async handle(request, context, commands) {
    const results = await answerAllowed(
      request.resources.map((resource) => ({
        type: configResourceTypeOf(resource.resourceType),
        name: resource.resourceName,
        configs: resource.configs.map((config) => ({
          name: config.name,
          value: config.value,
          operation: 'set' as const,
        })),
      })),
      (resource) => context.access.allows(configRuleFor(RULES, resource.type), resource.name),
      (allowed) =>
        commands.configs.alterConfigs(allowed, { validateOnly: request.validateOnly, incremental: false }),
      (resource) => ({ errorCode: configRuleFor(RULES, resource.type).denied, errorMessage: null }),
    );
    return {
      throttleTimeMs: 0,
      responses: results.map((result, index) => ({
        errorCode: result.errorCode,
        errorMessage: result.errorMessage,
        resourceType: request.resources[index]!.resourceType,
        resourceName: request.resources[index]!.resourceName,
      })),
    };
  },
});
