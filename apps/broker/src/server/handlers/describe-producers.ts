import { DescribeProducers } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * DescribeProducers v0 (KIP-664; flexible only, sent by admin tools): per partition the producers
 * its log keeps state for, with their epoch, last sequence and the first offset of their open
 * transaction, which is how a hanging transaction is found.
 */
export const describeProducersHandler = defineHandler({
  api: DescribeProducers,
  versions: { min: 0, max: 0 },
  async handle(request, _context, commands) {
    const rows = commands.transactions.describeProducers(
      request.topics.map((topic) => ({ name: topic.name, partitions: topic.partitionIndexes })),
    );
    return {
      throttleTimeMs: 0,
      topics: request.topics.map((topic) => ({
        name: topic.name,
        partitions: rows
          .filter((row) => row.topic === topic.name)
          .map((row) => ({
            partitionIndex: row.partition,
            errorCode: row.errorCode,
            errorMessage: row.errorMessage,
            activeProducers: row.producers.map((producer) => ({
              producerId: producer.producerId,
              producerEpoch: producer.producerEpoch,
              lastSequence: producer.lastSequence,
              lastTimestamp: BigInt(producer.lastTimestampMs),
              coordinatorEpoch: producer.coordinatorEpoch,
              currentTxnStartOffset: BigInt(producer.currentTxnStartOffset),
            })),
          })),
      })),
    };
  },
});
