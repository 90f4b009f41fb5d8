import type { BrokerServices } from '../../broker-services';
import { type ConfigOperation, configResourceTypeOf } from '../../config-resources/config-types';
import { answerAllowed } from '../../security/acl/answer-allowed';
import type { AclRule } from '../../security/acl/api-acl-rules';
import { configRuleFor } from '../../security/acl/config-rules';
import type { RequestContext } from '../handler';

/** A resource of an AlterConfigs or IncrementalAlterConfigs request, as the wire carries it. */
interface WireAlteredResource<Config> {
  resourceType: number;
  resourceName: string;
  configs: readonly Config[];
}

/** What sets the two config-altering APIs apart. */
export interface ConfigAlteration<Config> {
  rules: { readonly topic: AclRule; readonly broker: AclRule };
  /** True when configs not named keep their values (IncrementalAlterConfigs). */
  incremental: boolean;
  /** The operation a config asks for; null for an id Weir does not know (the service refuses it). */
  operationOf(config: Config): ConfigOperation | null;
}

/**
 * AlterConfigs and IncrementalAlterConfigs answer alike: each resource's configs go to the config
 * service if the principal may alter the resource (ALTER_CONFIGS on the topic, the cluster for the
 * broker), a denied resource is left as it is and gets the rule's error, and the answers keep the
 * request's order. Only whether unnamed configs keep their values, and where a config's operation
 * comes from, differ.
 */
export async function answerConfigAlteration<Config extends { name: string; value: string | null }>(
  request: { resources: readonly WireAlteredResource<Config>[]; validateOnly: boolean },
  context: RequestContext,
  services: BrokerServices,
  alteration: ConfigAlteration<Config>,
) {
  const { rules, incremental } = alteration;
  const results = await answerAllowed(
    request.resources.map((resource) => ({
      type: configResourceTypeOf(resource.resourceType),
      name: resource.resourceName,
      configs: resource.configs.map((config) => ({
        name: config.name,
        value: config.value,
        operation: alteration.operationOf(config),
      })),
    })),
    (resource) => context.access.allows(configRuleFor(rules, resource.type), resource.name),
    (allowed) => services.configs.alterConfigs(allowed, { validateOnly: request.validateOnly, incremental }),
    (resource) => ({ errorCode: configRuleFor(rules, resource.type).denied, errorMessage: null }),
  );
  return {
    throttleTimeMs: 0,
    responses: results.map((result, index) => ({
      ...context.errorOf(result),
      resourceType: request.resources[index]!.resourceType,
      resourceName: request.resources[index]!.resourceName,
    })),
  };
}
