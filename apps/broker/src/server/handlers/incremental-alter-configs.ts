import { IncrementalAlterConfigs } from '@weir/protocol';
import { configOperationOf, configResourceTypeOf } from '../../commands/config-types';
import { answerAllowed } from '../../security/acl/answer-allowed';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { configRuleFor } from '../../security/acl/config-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.IncrementalAlterConfigs;

/**
 * IncrementalAlterConfigs v0: per-config SET, DELETE, APPEND and SUBTRACT on a topic's overrides;
 * configs not named keep their values. Broker configs are refused as read-only. Needs
 * ALTER_CONFIGS on the topic (the cluster for the broker); a denied resource is left as it is.
 */
export const incrementalAlterConfigsHandler = defineHandler({
  api: IncrementalAlterConfigs,
  versions: { min: 0, max: 0 },
  async handle(request, context, commands) {
    const results = await answerAllowed(
      request.resources.map((resource) => ({
        type: configResourceTypeOf(resource.resourceType),
        name: resource.resourceName,
        configs: resource.configs.map((config) => ({
          name: config.name,
          value: config.value,
          operation: configOperationOf(config.configOperation),
        })),
      })),
      (resource) => context.access.allows(configRuleFor(RULES, resource.type), resource.name),
      (allowed) =>
        commands.configs.alterConfigs(allowed, { validateOnly: request.validateOnly, incremental: true }),
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
