import { DescribeTransactions } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * DescribeTransactions v0 (KIP-664; Kafka has no non-flexible version, and neither kafkajs nor
 * librdkafka 2.0 sends it): per transactional id its state, producer id and epoch, timeout, start
 * time and partitions. An unknown id is a row with TRANSACTIONAL_ID_NOT_FOUND.
 */
export const describeTransactionsHandler = defineHandler({
  api: DescribeTransactions,
  versions: { min: 0, max: 0 },
  async handle(request, _context, commands) {
    const rows = commands.transactions.describeTransactions(request.transactionalIds);
    return {
      throttleTimeMs: 0,
      transactionStates: rows.map((row) =>
        row.view
          ? {
              errorCode: row.errorCode,
              transactionalId: row.transactionalId,
              transactionState: row.view.state,
              transactionTimeoutMs: row.view.timeoutMs,
              transactionStartTimeMs: BigInt(row.view.startTimeMs),
              producerId: row.view.producerId,
              producerEpoch: row.view.producerEpoch,
              topics: row.view.topics,
            }
          : {
              errorCode: row.errorCode,
              transactionalId: row.transactionalId,
              transactionState: '',
              transactionTimeoutMs: 0,
              transactionStartTimeMs: -1n,
              producerId: -1n,
              producerEpoch: -1,
              topics: [],
            },
      ),
    };
  },
});
