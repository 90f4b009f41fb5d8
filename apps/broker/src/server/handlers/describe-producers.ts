import { DescribeProducers, ErrorCode } from '@weir/protocol';
import type { PartitionProducers } from '../../replica/replica-manager';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.DescribeProducers;

/**
 * DescribeProducers v0 (KIP-664; flexible only, sent by admin tools): per partition the producers
 * its log keeps state for, with their epoch, last sequence and the first offset of their open
 * transaction, which is how a hanging transaction is found. Needs READ on the topic; without,
 * each partition asked for is a TOPIC_AUTHORIZATION_FAILED row.
 */
export const describeProducersHandler = defineHandler({
  api: DescribeProducers,
  versions: { min: 0, max: 0 },
  async handle(request, context, services) {
    const { allowed, denied } = context.access.split(RULES.topic, request.topics, (topic) => topic.name);
    const rows = [
      ...allowed.flatMap((topic) =>
        topic.partitionIndexes.map((partition) => {
          try {
            const producers = services.replicas.producers(topic.name, partition).map(activeProducerOf);
            return { topic: topic.name, partition, errorCode: ErrorCode.NONE, errorMessage: null, producers };
          } catch (error) {
            return { topic: topic.name, partition, ...context.failure(error), producers: [] };
          }
        }),
      ),
      ...denied.flatMap((topic) =>
        topic.partitionIndexes.map((partition) => ({
          topic: topic.name,
          partition,
          errorCode: RULES.topic.denied,
          errorMessage: null,
          producers: [],
        })),
      ),
    ];
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

/** One producer's state on a partition, as DescribeProducers reports it. */
function activeProducerOf(entry: PartitionProducers[number]) {
  const latest = entry.batches.at(-1);
  return {
    producerId: BigInt(entry.producerId),
    producerEpoch: entry.producerEpoch,
    // The last sequence of its latest batch; -1 when it has written only markers.
    lastSequence: latest?.lastSequence ?? -1,
    lastTimestampMs: entry.lastTimestampMs,
    coordinatorEpoch: entry.coordinatorEpoch,
    // The first offset of its open transaction on this partition, or -1.
    currentTxnStartOffset: entry.currentTransactionFirstOffset,
  };
}
