import { IncrementalAlterConfigs } from '@weir/protocol';
import { configOperationOf, configResourceTypeOf } from '../../commands/config-types';
import { defineHandler } from '../handler';

/**
 * IncrementalAlterConfigs v0: per-config SET, DELETE, APPEND and SUBTRACT on a topic's overrides;
 * configs not named keep their values. Broker configs are refused as read-only.
 */
export const incrementalAlterConfigsHandler = defineHandler({
  api: IncrementalAlterConfigs,
  versions: { min: 0, max: 0 },
  async handle(request, _context, commands) {
    const results = await commands.configs.alterConfigs(
      request.resources.map((resource) => ({
        type: configResourceTypeOf(resource.resourceType),
        name: resource.resourceName,
        configs: resource.configs.map((config) => ({
          name: config.name,
          value: config.value,
          operation: configOperationOf(config.configOperation),
        })),
      })),
      { validateOnly: request.validateOnly, incremental: true },
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
