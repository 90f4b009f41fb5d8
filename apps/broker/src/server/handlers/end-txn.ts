import { EndTxn } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * EndTxn v0–1 (both clients send at most v1). Answers only once the markers are written to every
 * partition and a commit's offsets are applied, so the client's next transaction never finds this
 * one still completing. A retry with the same result after completion succeeds.
 */
export const endTxnHandler = defineHandler({
  api: EndTxn,
  versions: { min: 0, max: 1 },
  async handle(request, _context, commands) {
    const errorCode = await commands.transactions.endTxn(
      {
        transactionalId: request.transactionalId,
        producerId: request.producerId,
        producerEpoch: request.producerEpoch,
      },
      request.committed,
    );
    return { throttleTimeMs: 0, errorCode };
  },
});
