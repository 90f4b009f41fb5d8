import { InitProducerId } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.InitProducerId;

/**
 * InitProducerId v0–1. Without a transactional id it hands out an idempotent producer id; with one
 * the transaction coordinator answers (one producer id per transactional id, the epoch bumped on
 * every call). v0 must be in the range: librdkafka 2.0 probes for exactly version 0 before it
 * enables idempotence (docs/kafka-compat.md §1.2). PRODUCER_FENCED never goes out at these versions.
 * Needs WRITE on the transactional id, or for an idempotent producer IDEMPOTENT_WRITE (which
 * WRITE on any topic or transactional id implies); the denial allocates nothing.
 */
export const initProducerIdHandler = defineHandler({
  api: InitProducerId,
  versions: { min: 0, max: 1 },
  async handle(request, context, services) {
    const rule = request.transactionalId !== null ? RULES.transactionalId : RULES.idempotent;
    if (!context.access.allows(rule, request.transactionalId ?? undefined)) {
      return { throttleTimeMs: 0, errorCode: rule.denied, producerId: -1n, producerEpoch: -1 };
    }
    try {
      if (request.transactionalId !== null) {
        const outcome = await services.transactions.initProducerId(
          request.transactionalId,
          request.transactionTimeoutMs,
        );
        return { throttleTimeMs: 0, ...outcome };
      }
      // An idempotent producer: a fresh producer id at epoch 0.
      const producerId = await services.producerIds.allocateProducerId();
      return { throttleTimeMs: 0, errorCode: 0, producerId, producerEpoch: 0 };
    } catch (error) {
      const { errorCode } = context.failure(error);
      return { throttleTimeMs: 0, errorCode, producerId: -1n, producerEpoch: -1 };
    }
  },
});
