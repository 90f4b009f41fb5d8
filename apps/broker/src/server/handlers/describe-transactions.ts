import { DescribeTransactions } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.DescribeTransactions;

/**
 * DescribeTransactions v0 (KIP-664; Kafka has no non-flexible version, and neither kafkajs nor
 * librdkafka 2.0 sends it): per transactional id its state, producer id and epoch, timeout, start
 * time and partitions. An unknown id is a row with TRANSACTIONAL_ID_NOT_FOUND. An id the principal
 * may not describe is a row with TRANSACTIONAL_ID_AUTHORIZATION_FAILED; of a described one's
 * partitions, only those of topics it may describe are shown (Kafka's rule).
 */
export const describeTransactionsHandler = defineHandler({
  api: DescribeTransactions,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    const { access } = context;
    const { allowed } = access.split(RULES.transactionalId, request.transactionalIds, (id) => id);
    const described = new Map(
      allowed.map((transactionalId) => {
        const { errorCode, view } = services.transactions.describe(transactionalId);
        return [transactionalId, { transactionalId, errorCode, view }];
      }),
    );
    const rows = request.transactionalIds.map(
      (transactionalId) =>
        described.get(transactionalId) ?? {
          transactionalId,
          errorCode: RULES.transactionalId.denied,
          view: undefined,
        },
    );
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
              topics: row.view.topics.filter((topic) => access.allows(RULES.topic, topic.topic)),
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
