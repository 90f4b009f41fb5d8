import { AddOffsetsToTxn } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.AddOffsetsToTxn;

/**
 * AddOffsetsToTxn v0–2: librdkafka sends only v0 and kafkajs at most v1 (docs/kafka-compat.md §0.5). Adds
 * a consumer group to the open transaction, so TxnOffsetCommit may stage offsets for it. Needs
 * WRITE on the transactional id and READ on the group.
 */
export const addOffsetsToTxnHandler = defineHandler({
  api: AddOffsetsToTxn,
  versions: { min: 0, max: 2 },
  async handle(request, context, services) {
    const { access } = context;
    if (!access.allows(RULES.transactionalId, request.transactionalId)) {
      return { throttleTimeMs: 0, errorCode: RULES.transactionalId.denied };
    }
    if (!access.allows(RULES.group, request.groupId))
      return { throttleTimeMs: 0, errorCode: RULES.group.denied };
    const errorCode = await services.transactions.addOffsets(
      {
        transactionalId: request.transactionalId,
        producerId: request.producerId,
        producerEpoch: request.producerEpoch,
      },
      request.groupId,
    );
    return { throttleTimeMs: 0, errorCode };
  },
});
