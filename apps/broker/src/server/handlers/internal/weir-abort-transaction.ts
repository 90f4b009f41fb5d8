import { WeirAbortTransaction } from '@weir/protocol';
import { defineHandler } from '../../handler';
import { NO_ERROR, topLevelError } from './top-level-error';

/**
 * WeirAbortTransaction v0: an operator aborts a hanging transaction. The caller's principal goes
 * into the log with the reason, so every forced abort can be traced to who asked and why.
 */
export const weirAbortTransactionHandler = defineHandler({
  api: WeirAbortTransaction,
  versions: { min: 0, max: 0 },
  async handle(request, context, commands) {
    try {
      await commands.transactions.abortTransaction(
        request.transactionalId,
        request.reason,
        context.principal,
      );
      return { ...NO_ERROR };
    } catch (error) {
      return topLevelError(error);
    }
  },
});
