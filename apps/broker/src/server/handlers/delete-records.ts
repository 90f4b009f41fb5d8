import { DeleteRecords } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { answerTopicPartitions } from '../answers/answer-topic-partitions';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.DeleteRecords;

/**
 * DeleteRecords v0–1: moves each partition's log start offset; answers with the new low watermark.
 * Partitions of topics the principal may not delete from get TOPIC_AUTHORIZATION_FAILED.
 */
export const deleteRecordsHandler = defineHandler({
  api: DeleteRecords,
  versions: { min: 0, max: 1 },
  async handle(request, context, services) {
    const topics = await answerTopicPartitions(
      request.topics,
      context.access,
      RULES.topic,
      async (topic, partition) => {
        try {
          const lowWatermark = await services.replicas.deleteRecords({
            topic,
            partition: partition.partitionIndex,
            offset: Number(partition.offset),
          });
          return {
            partitionIndex: partition.partitionIndex,
            lowWatermark: BigInt(lowWatermark),
            errorCode: 0,
          };
        } catch (error) {
          return {
            partitionIndex: partition.partitionIndex,
            lowWatermark: -1n,
            errorCode: context.failure(error).errorCode,
          };
        }
      },
      (partition) => ({
        partitionIndex: partition.partitionIndex,
        lowWatermark: -1n,
        errorCode: RULES.topic.denied,
      }),
    );
    return { throttleTimeMs: 0, topics };
  },
});
