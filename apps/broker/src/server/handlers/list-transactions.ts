import { ListTransactions } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
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
  async handle(request, context, commands) {
    const listed = commands.transactions.listTransactions(request.stateFilters, request.producerIdFilters);
    return {
      throttleTimeMs: 0,
      errorCode: listed.errorCode,
      unknownStateFilters: listed.unknownStateFilters,
      transactionStates: listed.transactions
        .filter((row) => context.access.allows(RULES.transactionalId, row.transactionalId))
        .map((row) => ({
          transactionalId: row.transactionalId,
          producerId: row.producerId,
          transactionState: row.state,
        })),
    };
  },
});
