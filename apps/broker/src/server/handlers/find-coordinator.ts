import { FindCoordinator } from '@weir/protocol';
import { failureOf } from '../../commands/command-result';
import { defineHandler } from '../handler';

/**
 * FindCoordinator v0–2: this broker coordinates every group (key type 0) and transactional id
 * (key type 1). v0 must be in the range: librdkafka 2.0 probes exactly v0 before it enables
 * consumer groups (kafka-compat §1.2); v0 carries no key type and means a group.
 */
export const findCoordinatorHandler = defineHandler({
  api: FindCoordinator,
  versions: { min: 0, max: 2 },
  async handle(request, context, commands) {
    try {
      const { nodeId, host, port } = commands.groups.findCoordinator(request.keyType, context.listenerName);
      return { throttleTimeMs: 0, errorCode: 0, errorMessage: null, nodeId, host, port };
    } catch (error) {
      const failure = failureOf(error);
      return {
        throttleTimeMs: 0,
        errorCode: failure.errorCode,
        errorMessage: failure.errorMessage,
        nodeId: -1,
        host: '',
        port: -1,
      };
    }
  },
});
