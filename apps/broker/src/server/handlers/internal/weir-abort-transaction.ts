import { ErrorCode, errorCodeInfo, WeirAbortTransaction } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirAbortTransaction;

/**
 * WeirAbortTransaction v0: an operator aborts a hanging transaction. The caller's principal goes
 * into the log with the reason, so every forced abort can be traced to who asked and why. Needs
 * WRITE on the transactional id and ALTER on the cluster: it overrides the producer.
 */
export const weirAbortTransactionHandler = defineHandler({
  api: WeirAbortTransaction,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    const { access } = context;
    if (!access.allows(RULES.transactionalId, request.transactionalId))
      return deniedError(RULES.transactionalId);
    if (!access.allows(RULES.cluster)) return deniedError(RULES.cluster);
    if (request.reason.trim() === '') {
      return { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'an abort needs a reason for the log' };
    }
    const errorCode = await services.transactions.abortByOperator(
      request.transactionalId,
      context.principal,
      request.reason,
    );
    if (errorCode === ErrorCode.NONE) return { ...NO_ERROR };
    return { errorCode, errorMessage: errorCodeInfo(errorCode)?.message ?? null };
  },
});
