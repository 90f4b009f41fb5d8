import type { ConfigResourceType } from '../../config-resources/config-types';
import type { AclRule } from './api-acl-rules';

/**
 * The rule for a config resource: its topic's, or the cluster's for the broker and for types Weir
 * does not serve (Kafka guards broker loggers with the cluster too); the service refuses those.
 */
export function configRuleFor(
  rules: { readonly topic: AclRule; readonly broker: AclRule },
  type: ConfigResourceType | null,
): AclRule {
  return type === 'topic' ? rules.topic : rules.broker;
}
