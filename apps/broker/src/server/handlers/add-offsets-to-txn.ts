import { AddOffsetsToTxn } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * AddOffsetsToTxn v0–1: librdkafka sends only v0 and kafkajs at most v1 (kafka-compat §0.5). Adds
 * a consumer group to the open transaction, so TxnOffsetCommit may stage offsets for it.
 */
export const addOffsetsToTxnHandler = defineHandler({
  api: AddOffsetsToTxn,
  versions: { min: 0, max: 1 },
  async handle(request, _context, commands) {
    const errorCode = await commands.transactions.addOffsets(
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
