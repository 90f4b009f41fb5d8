import { AlterConfigs } from '@weir/protocol';
import { configResourceTypeOf } from '../../commands/config-types';
import { defineHandler } from '../handler';

/**
 * AlterConfigs v0–1: each topic resource's listed configs replace all its overrides (unlisted
 * ones go back to their defaults); broker configs are refused as read-only.
 */
export const alterConfigsHandler = defineHandler({
  api: AlterConfigs,
  versions: { min: 0, max: 1 },
  async handle(request, _context, commands) {
    const results = await commands.configs.alterConfigs(
      request.resources.map((resource) => ({
        type: configResourceTypeOf(resource.resourceType),
        name: resource.resourceName,
        configs: resource.configs.map((config) => ({
          name: config.name,
          value: config.value,
          operation: 'set' as const,
        })),
      })),
      { validateOnly: request.validateOnly, incremental: false },
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
