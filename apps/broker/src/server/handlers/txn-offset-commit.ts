import { TxnOffsetCommit } from '@weir/protocol';
import { defineHandler } from '../handler';

/**
 * TxnOffsetCommit v0–2: kafkajs sends at most v1, librdkafka v2 (which adds the leader epoch).
 * The offsets are staged in the transaction and become the group's committed offsets only when
 * it commits; an abort drops them.
 */
export const txnOffsetCommitHandler = defineHandler({
  api: TxnOffsetCommit,
  versions: { min: 0, max: 2 },
  async handle(request, _context, commands) {
    const topics = await commands.transactions.txnOffsetCommit(
      {
        transactionalId: request.transactionalId,
        producerId: request.producerId,
        producerEpoch: request.producerEpoch,
      },
      request.groupId,
      request.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map((partition) => ({
          partitionIndex: partition.partitionIndex,
          offset: Number(partition.committedOffset),
          leaderEpoch: partition.committedLeaderEpoch,
          metadata: partition.committedMetadata,
        })),
      })),
    );
    return { throttleTimeMs: 0, topics };
  },
});
