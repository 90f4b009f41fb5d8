import { IncrementalAlterConfigs } from '@weir/protocol';
import { configOperationOf } from '../../config-resources/config-types';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { answerConfigAlteration } from '../answers/answer-config-alteration';
import { defineHandler } from '../handler';

/**
 * IncrementalAlterConfigs v0: per-config SET, DELETE, APPEND and SUBTRACT on a topic's overrides;
 * configs not named keep their values. Broker configs are refused as read-only. Needs
 * ALTER_CONFIGS on the topic (the cluster for the broker); a denied resource is left as it is.
 */
export const incrementalAlterConfigsHandler = defineHandler({
  api: IncrementalAlterConfigs,
  versions: { min: 0, max: 0 },
  handle: (request, context, services) =>
    answerConfigAlteration(request, context, services, {
      rules: API_ACL_RULES.IncrementalAlterConfigs,
      incremental: true,
      operationOf: (config) => configOperationOf(config.configOperation),
    }),
});
