import { ListTransactions } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { isTransactionState } from '../../txn/transaction-state';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.ListTransactions;

/**
 * ListTransactions v0 (KIP-664; flexible only, sent by admin tools, not by kafkajs or librdkafka
 * 2.0): the transactional ids this coordinator knows, filtered by state and producer id (empty
 * filters match all). State filters that name no state are reported back, as Kafka does. Only
 * the transactional ids the principal may describe are listed.
 */
export const listTransactionsHandler = defineHandler({
  api: ListTransactions,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    const { errorCode, transactions } = services.transactions.list();
    const states = new Set(request.stateFilters);
    const producerIds = new Set(request.producerIdFilters);
    return {
      throttleTimeMs: 0,
      errorCode,
      unknownStateFilters: request.stateFilters.filter((state) => !isTransactionState(state)),
      transactionStates: transactions
        .filter((view) => states.size === 0 || states.has(view.state))
        .filter((view) => producerIds.size === 0 || producerIds.has(view.producerId))
        .filter((view) => context.access.allows(RULES.transactionalId, view.transactionalId))
        .map((view) => ({
          transactionalId: view.transactionalId,
          producerId: view.producerId,
          transactionState: view.state,
        })),
    };
  },
});
