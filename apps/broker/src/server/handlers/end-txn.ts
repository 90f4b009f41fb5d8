import { EndTxn } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.EndTxn;

/**
 * EndTxn v0–2 (both clients send at most v1). Answers only once the markers are written to every
 * partition and a commit's offsets are applied, so the client's next transaction never finds this
 * one still completing. A retry with the same result after completion succeeds. Needs WRITE on
 * the transactional id.
 */
export const endTxnHandler = defineHandler({
  api: EndTxn,
  versions: { min: 0, max: 2 },
  async handle(request, context, services) {
    if (!context.access.allows(RULES.transactionalId, request.transactionalId)) {
      return { throttleTimeMs: 0, errorCode: RULES.transactionalId.denied };
    }
    const errorCode = await services.transactions.endTransaction(
      {
        transactionalId: request.transactionalId,
        producerId: request.producerId,
        producerEpoch: request.producerEpoch,
      },
      request.committed ? 'commit' : 'abort',
    );
    return { throttleTimeMs: 0, errorCode };
  },
});
