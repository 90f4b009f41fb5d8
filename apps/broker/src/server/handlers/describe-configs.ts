import { DescribeConfigs } from '@weir/protocol';
import {
  CONFIG_SOURCE_IDS,
  CONFIG_VALUE_TYPE_IDS,
  configResourceTypeOf,
} from '../../config-resources/config-types';
import { answerAllowed } from '../../security/acl/answer-allowed';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { configRuleFor } from '../../security/acl/config-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.DescribeConfigs;

/**
 * DescribeConfigs v0–3 for topics and this broker. v0 reports `is_default`; v1+ reports
 * `config_source` and, when asked, synonyms; v3 each config's type and, when asked, its
 * documentation. The codec writes only the fields of the version.
 * Needs DESCRIBE_CONFIGS on the topic (the cluster for the broker); without, the resource's error
 * is TOPIC_ (CLUSTER_) AUTHORIZATION_FAILED.
 */
export const describeConfigsHandler = defineHandler({
  api: DescribeConfigs,
  versions: { min: 0, max: 3 },
  async handle(request, context, services) {
    const descriptions = await answerAllowed(
      request.resources.map((resource) => ({
        type: configResourceTypeOf(resource.resourceType),
        name: resource.resourceName,
        keys: resource.configurationKeys,
      })),
      (resource) => context.access.allows(configRuleFor(RULES, resource.type), resource.name),
      (allowed) =>
        services.configs.describeConfigs(allowed, {
          includeSynonyms: request.includeSynonyms,
          includeDocumentation: request.includeDocumentation,
        }),
      (resource) => ({
        errorCode: configRuleFor(RULES, resource.type).denied,
        errorMessage: null,
        entries: [],
      }),
    );
    return {
      throttleTimeMs: 0,
      results: descriptions.map((description, index) => {
        const resource = request.resources[index]!;
        return {
          ...context.errorOf(description),
          resourceType: resource.resourceType,
          resourceName: resource.resourceName,
          configs: description.entries.map((entry) => ({
            name: entry.name,
            value: entry.value,
            readOnly: entry.readOnly,
            isDefault: entry.isDefault,
            configSource: CONFIG_SOURCE_IDS[entry.source],
            isSensitive: entry.isSensitive,
            synonyms: entry.synonyms.map((synonym) => ({
              name: synonym.name,
              value: synonym.value,
              source: CONFIG_SOURCE_IDS[synonym.source],
            })),
            configType: CONFIG_VALUE_TYPE_IDS[entry.type],
            documentation: entry.documentation,
          })),
        };
      }),
    };
  },
});
