import { AddPartitionsToTxn } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * AddPartitionsToTxn v0–1: librdkafka sends only v0 and kafkajs at most v1 (kafka-compat §0.5);
 * v4's batches of transactions are not served. Fencing is INVALID_PRODUCER_EPOCH at these versions.
 */
export const addPartitionsToTxnHandler = defineHandler({
  api: AddPartitionsToTxn,
  versions: { min: 0, max: 1 },
  async handle(request, _context, commands) {
    const topics = await commands.transactions.addPartitions(
      {
        transactionalId: request.v3AndBelowTransactionalId,
        producerId: request.v3AndBelowProducerId,
        producerEpoch: request.v3AndBelowProducerEpoch,
      },
      request.v3AndBelowTopics,
    );
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
