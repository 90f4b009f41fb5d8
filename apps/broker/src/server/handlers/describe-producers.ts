import { DescribeProducers } from '@weir/protocol';
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
  async handle(request, context, commands) {
    const { allowed, denied } = context.access.split(RULES.topic, request.topics, (topic) => topic.name);
    const rows = [
      ...commands.transactions.describeProducers(
        allowed.map((topic) => ({ name: topic.name, partitions: topic.partitionIndexes })),
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
