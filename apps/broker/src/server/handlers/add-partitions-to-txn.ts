import { AddPartitionsToTxn, ErrorCode, type RequestOf } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import type { TransactionCoordinator } from '../../txn/transaction-coordinator';
import { partitionKey } from '../../txn/transaction-metadata';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.AddPartitionsToTxn;

/**
 * AddPartitionsToTxn v0–2: librdkafka sends only v0 and kafkajs at most v1 (docs/kafka-compat.md §0.5);
 * v4's batches of transactions are not served. Fencing is INVALID_PRODUCER_EPOCH at these versions.
 * Needs WRITE on the transactional id (else every partition gets
 * TRANSACTIONAL_ID_AUTHORIZATION_FAILED) and on each topic; as in Kafka, one denied topic stops
 * the whole request: its partitions get TOPIC_AUTHORIZATION_FAILED, the others
 * OPERATION_NOT_ATTEMPTED, and nothing is added.
 */
export const addPartitionsToTxnHandler = defineHandler({
  api: AddPartitionsToTxn,
  versions: { min: 0, max: 2 },
  async handle(request, context, services) {
    const { access } = context;
    const requested = request.v3AndBelowTopics;
    const refusedId = !access.allows(RULES.transactionalId, request.v3AndBelowTransactionalId);
    const deniedTopics = refusedId
      ? new Set<string>()
      : new Set(
          access.split(RULES.topic, requested, (topic) => topic.name).denied.map((topic) => topic.name),
        );
    const topics =
      refusedId || deniedTopics.size > 0
        ? requested.map((topic) => ({
            name: topic.name,
            partitions: topic.partitions.map((partitionIndex) => ({
              partitionIndex,
              errorCode: refusedId
                ? RULES.transactionalId.denied
                : deniedTopics.has(topic.name)
                  ? RULES.topic.denied
                  : ErrorCode.OPERATION_NOT_ATTEMPTED,
            })),
          }))
        : await addPartitions(services.transactions, request, requested);
    return {
      throttleTimeMs: 0,
      resultsByTopicV3AndBelow: topics.map((topic) => ({
        name: topic.name,
        resultsByPartition: topic.partitions.map((partition) => ({
          partitionIndex: partition.partitionIndex,
          partitionErrorCode: partition.errorCode,
        })),
      })),
    };
  },
});

/** Asks the coordinator for every partition at once and answers each with its own code. */
async function addPartitions(
  coordinator: TransactionCoordinator,
  request: RequestOf<typeof AddPartitionsToTxn>,
  topics: readonly { name: string; partitions: readonly number[] }[],
) {
  const claim = {
    transactionalId: request.v3AndBelowTransactionalId,
    producerId: request.v3AndBelowProducerId,
    producerEpoch: request.v3AndBelowProducerEpoch,
  };
  const partitions = topics.flatMap((topic) =>
    topic.partitions.map((partition) => ({ topic: topic.name, partition })),
  );
  const errors = await coordinator.addPartitions(claim, partitions);
  return topics.map((topic) => ({
    name: topic.name,
    partitions: topic.partitions.map((partitionIndex) => ({
      partitionIndex,
      errorCode: errors.get(partitionKey({ topic: topic.name, partition: partitionIndex })) ?? ErrorCode.NONE,
    })),
  }));
}
