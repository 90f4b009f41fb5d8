import { FindCoordinator } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.FindCoordinator;

/**
 * FindCoordinator v0–2: the leader of the internal-topic partition a group (key type 0) or a
 * transactional id (key type 1) hashes to, on the listener the request came in on; the first
 * transactional lookup creates `__transaction_state`. v0 must be in the range: librdkafka 2.0 probes exactly v0 before it enables
 * consumer groups (docs/kafka-compat.md §1.2); v0 carries no key type and means a group. Needs DESCRIBE
 * on the group or transactional id; without, GROUP_ (TRANSACTIONAL_ID_) AUTHORIZATION_FAILED.
 */
export const findCoordinatorHandler = defineHandler({
  api: FindCoordinator,
  versions: { min: 0, max: 2 },
  async handle(request, context, services) {
    const rule = request.keyType === 1 ? RULES.transactionalId : RULES.group;
    if (!context.access.allows(rule, request.key)) {
      return {
        throttleTimeMs: 0,
        errorCode: rule.denied,
        errorMessage: null,
        nodeId: -1,
        host: '',
        port: -1,
      };
    }
    try {
      const { nodeId, host, port } = await services.coordinators.findCoordinator(
        request.keyType,
        request.key,
        context.listenerName,
      );
      return { throttleTimeMs: 0, errorCode: 0, errorMessage: null, nodeId, host, port };
    } catch (error) {
      return {
        throttleTimeMs: 0,
        ...context.failure(error),
        nodeId: -1,
        host: '',
        port: -1,
      };
    }
  },
});
