import {
  abortTransaction,
  describeTopicProducers,
  describeTransaction,
  listTransactions,
} from '../../services/transactions';
import { rest } from '../rest-meta';
import {
  abortTransactionInputSchema,
  abortTransactionResultSchema,
  topicProducersInputSchema,
  topicProducersSchema,
  transactionDetailSchema,
  transactionListInputSchema,
  transactionListSchema,
  transactionRefInputSchema,
} from '../schemas/transactions';
import type { Transport } from '../transport';
import { createTRPCRouter, restProcedure } from '../trpc';

const TAG = 'transactions';

export function transactionsRouter(transport: Transport) {
  return createTRPCRouter({
    list: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/transactions',
        'Transactional ids with state, producer, partitions and age against their timeout',
        'Filter by state, open only or hanging only (open longer than the timeout); sorted by age (oldest first) unless asked otherwise.',
      ),
      transactionListInputSchema,
    )
      .output(transactionListSchema)
      .query(({ ctx, input }) => listTransactions(ctx.services.broker.admin(), input, ctx.services.now)),

    get: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/transactions/{transactionalId}',
        'One transaction: its partitions, where it begins on each, and the LSO–HWM gap there',
      ),
      transactionRefInputSchema,
    )
      .output(transactionDetailSchema)
      .query(async ({ ctx, input }) => {
        const { broker, now } = ctx.services;
        return describeTransaction(
          broker.admin(),
          broker.internal(),
          input.transactionalId,
          now,
          await ctx.services.aclPolicy?.(),
        );
      }),

    abort: restProcedure(
      transport,
      rest(
        TAG,
        'POST',
        '/transactions/{transactionalId}/abort',
        'Abort an open (hanging) transaction; the reason is logged by the broker',
        'Bumps the producer epoch (fencing the producer) and writes ABORT markers before answering. ' +
          'INVALID_TXN_STATE (412) when no transaction is open, TRANSACTIONAL_ID_NOT_FOUND (404) for an unknown id.',
      ),
      abortTransactionInputSchema,
    )
      .output(abortTransactionResultSchema)
      .mutation(({ ctx, input }) => {
        const { broker, now, logger } = ctx.services;
        logger.info({ transactionalId: input.transactionalId, reason: input.reason }, 'operator abort');
        return abortTransaction(broker.admin(), broker.internal(), input, now);
      }),

    topicProducers: restProcedure(
      transport,
      rest(
        TAG,
        'GET',
        '/transactions/topics/{topic}/producers',
        "Producers with state on each of a topic's partitions, and each partition's LSO–HWM gap",
      ),
      topicProducersInputSchema,
    )
      .output(topicProducersSchema)
      .query(({ ctx, input }) => {
        const { broker, now } = ctx.services;
        return describeTopicProducers(broker.admin(), broker.internal(), input.topic, now);
      }),
  });
}
