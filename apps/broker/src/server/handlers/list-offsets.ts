import { ListOffsets } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { answerTopicPartitions } from '../answers/answer-topic-partitions';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.ListOffsets;

/**
 * ListOffsets v0–5: earliest (-2), latest (-1) or the first offset at or after a timestamp. v0
 * answers that offset as a one-element array of old-style offsets (none when max_num_offsets is 0
 * or nothing was found). Kafka's v0 can list more than one: for -1 the log end and then the base
 * offset of every segment, for a time the base offsets of the segments last modified before it;
 * the clients that still send v0 (Burrow, Sarama's GetOffset) ask for one, -1 or -2, where both
 * answers agree (docs/kafka-compat.md §6.6). From
 * v2 the isolation level counts: read_committed's latest is the last stable offset. From v4 a
 * partition's `current_leader_epoch` is checked (FENCED_LEADER_EPOCH, UNKNOWN_LEADER_EPOCH; -1 is
 * not checked) and the answer carries the leader epoch of the offset found. Topics the principal
 * may not describe get TOPIC_AUTHORIZATION_FAILED.
 */
export const listOffsetsHandler = defineHandler({
  api: ListOffsets,
  versions: { min: 0, max: 5 },
  async handle(request, context, services) {
    const isolationLevel = request.isolationLevel === 1 ? 'read_committed' : 'read_uncommitted';
    const topics = await answerTopicPartitions(
      request.topics,
      context.access,
      RULES.topic,
      async (topic, partition) => {
        try {
          const found = await services.replicas.listOffset({
            topic,
            partition: partition.partitionIndex,
            timestampMs: Number(partition.timestamp),
            isolationLevel,
            // -1 below v4 (the codec's default): not checked.
            currentLeaderEpoch: partition.currentLeaderEpoch,
          });
          const wanted = partition.maxNumOffsets > 0 && found.offset >= 0;
          return {
            partitionIndex: partition.partitionIndex,
            errorCode: 0,
            oldStyleOffsets: wanted ? [BigInt(found.offset)] : [],
            timestamp: BigInt(found.timestampMs),
            offset: BigInt(found.offset),
            leaderEpoch: found.leaderEpoch,
          };
        } catch (error) {
          return {
            partitionIndex: partition.partitionIndex,
            errorCode: context.failure(error).errorCode,
            oldStyleOffsets: [],
            timestamp: -1n,
            offset: -1n,
            leaderEpoch: -1,
          };
        }
      },
      (partition) => ({
        partitionIndex: partition.partitionIndex,
        errorCode: RULES.topic.denied,
        oldStyleOffsets: [],
        timestamp: -1n,
        offset: -1n,
        leaderEpoch: -1,
      }),
    );
    return { throttleTimeMs: 0, topics };
  },
});
