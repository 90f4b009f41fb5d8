import { OffsetForLeaderEpoch } from '@weir/protocol';
import { API_ACL_RULES } from '../../security/acl/api-acl-rules';
import { answerTopicPartitions } from '../answers/answer-topic-partitions';
import { defineHandler } from '../handler';

const RULES = API_ACL_RULES.OffsetForLeaderEpoch;

/** Kafka's replica id for a debugging request (v0–2 send it implicitly): any replica may answer. */
const DEBUGGING_REPLICA_ID = -2;

/**
 * OffsetForLeaderEpoch v0–3 (KIP-101, KIP-279, KIP-320): for each partition, the end offset of the
 * leader epoch asked about, by Kafka's rule (log/leader-epoch-cache.ts): the start of the next
 * larger epoch, or the log end for the current one; from v1 with the largest epoch at or below
 * the one asked. An epoch this log does not know answers -1/-1 without an error. From v2 the
 * `current_leader_epoch` is checked (FENCED_LEADER_EPOCH, UNKNOWN_LEADER_EPOCH; -1 is not checked).
 * A partition this broker does not lead is NOT_LEADER_OR_FOLLOWER, an unknown one
 * UNKNOWN_TOPIC_OR_PARTITION; only a v0–2 request (replica id -2) may be answered by a follower.
 * Topics the principal may not describe get TOPIC_AUTHORIZATION_FAILED.
 */
export const offsetForLeaderEpochHandler = defineHandler({
  api: OffsetForLeaderEpoch,
  versions: { min: 0, max: 3 },
  async handle(request, context, services) {
    const leaderOnly = request.replicaId !== DEBUGGING_REPLICA_ID;
    const topics = await answerTopicPartitions(
      request.topics.map((topic) => ({ name: topic.topic, partitions: topic.partitions })),
      context.access,
      RULES.topic,
      async (topic, partition) => {
        try {
          const found = services.replicas.endOffsetForLeaderEpoch({
            topic,
            partition: partition.partition,
            leaderEpoch: partition.leaderEpoch,
            currentLeaderEpoch: partition.currentLeaderEpoch,
            leaderOnly,
          });
          return {
            errorCode: 0,
            partition: partition.partition,
            leaderEpoch: found.epoch,
            endOffset: BigInt(found.endOffset),
          };
        } catch (error) {
          return {
            errorCode: context.failure(error).errorCode,
            partition: partition.partition,
            leaderEpoch: -1,
            endOffset: -1n,
          };
        }
      },
      (partition) => ({
        errorCode: RULES.topic.denied,
        partition: partition.partition,
        leaderEpoch: -1,
        endOffset: -1n,
      }),
    );
    return {
      throttleTimeMs: 0,
      topics: topics.map((topic) => ({ topic: topic.name, partitions: topic.partitions })),
    };
  },
});
