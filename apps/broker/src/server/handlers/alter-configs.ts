import { AlterConfigs } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { answerConfigAlteration } from '../answers/answer-config-alteration';
import { defineHandler } from '../handler';

/**
 * AlterConfigs v0–1: each topic resource's listed configs replace all its overrides (unlisted
 * ones go back to their defaults); broker configs are refused as read-only. Needs ALTER_CONFIGS
 * on the topic (the cluster for the broker); a denied resource is left as it is.
 */
export const alterConfigsHandler = defineHandler({
  api: AlterConfigs,
  versions: { min: 0, max: 1 },
  handle: (request, context, services) =>
    answerConfigAlteration(request, context, services, {
      rules: API_ACL_RULES.AlterConfigs,
      incremental: false,
      // AlterConfigs carries no operations: every config it lists is set.
      operationOf: () => 'set',
    }),
});
