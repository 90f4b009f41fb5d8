import { ErrorCode, WeirApplyTxnOffsets, WeirError } from '@weir/protocol';
import { partitionForKey } from '../coordination/partition-for-key';
import { OFFSETS_TOPIC } from '../group/offsets-topic';
import type { ClusterView } from '../metadata/cluster-view';
import type { OffsetCommitter, TransactionOffsetsSink } from '../txn/transaction-completion';
import type { StagedOffset } from '../txn/transaction-metadata';
import type { InterBrokerClient } from './inter-broker-client';

export interface RoutedOffsetsSinkDeps {
  view: Pick<ClusterView, 'topic' | 'assignment'>;
  /** This broker's group coordinator. */
  local: TransactionOffsetsSink;
  peers: Pick<InterBrokerClient, 'send'>;
  isRemote(leader: number): boolean;
}

/**
 * Where a committed transaction's staged offsets go (transaction-completion.ts): to the coordinator
 * of the group, the leader of the group's `__consumer_offsets` partition, which is this broker's
 * group coordinator or another broker's, asked with WeirApplyTxnOffsets. A group coordinator that
 * has no leader or cannot be reached is COORDINATOR_NOT_AVAILABLE, and the transaction finisher
 * tries the completion again.
 */
export class RoutedOffsetsSink implements TransactionOffsetsSink {
  constructor(private readonly deps: RoutedOffsetsSinkDeps) {}

  async applyTransactionalOffsets(
    groupId: string,
    committer: OffsetCommitter,
    offsets: readonly StagedOffset[],
  ): Promise<number> {
    const { deps } = this;
    const topic = deps.view.topic(OFFSETS_TOPIC);
    // Without `__consumer_offsets` (or for the empty id) the local coordinator gives the answer.
    if (topic === undefined || groupId === '')
      return deps.local.applyTransactionalOffsets(groupId, committer, offsets);
    const leader =
      deps.view.assignment(OFFSETS_TOPIC, partitionForKey(groupId, topic.partitionCount))?.leader ?? -1;
    if (leader < 0) return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    if (!deps.isRemote(leader)) return deps.local.applyTransactionalOffsets(groupId, committer, offsets);
    try {
      const answer = await deps.peers.send(leader, WeirApplyTxnOffsets, {
        groupId,
        producerId: committer.producerId,
        producerEpoch: committer.producerEpoch,
        offsets: offsets.map((offset) => ({
          topic: offset.topic,
          partition: offset.partition,
          offset: BigInt(offset.offset),
          leaderEpoch: offset.leaderEpoch,
          metadata: offset.metadata,
        })),
      });
      return answer.errorCode;
    } catch (error) {
      if (error instanceof WeirError) return ErrorCode.COORDINATOR_NOT_AVAILABLE;
      throw error;
    }
  }
}
