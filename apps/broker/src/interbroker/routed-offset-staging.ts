import { ErrorCode, TxnOffsetCommit, WeirError } from '@weir/protocol';
import { partitionForKey } from '../coordination/partition-for-key';
import type { ClusterView, ListenerName } from '../metadata/cluster-view';
import type { PartitionErrors, ProducerClaim, StageOffsetsTopics } from '../txn/coordinator-types';
import type { TransactionCoordinator } from '../txn/transaction-coordinator';
import { TRANSACTION_STATE_TOPIC } from '../txn/transaction-log';
import type { InterBrokerClient } from './inter-broker-client';

export interface RoutedOffsetStagingDeps {
  view: Pick<ClusterView, 'topic' | 'assignment'>;
  local: Pick<TransactionCoordinator, 'stageOffsets'>;
  peers: Pick<InterBrokerClient, 'send'>;
  isRemote(leader: number): boolean;
}

/**
 * TxnOffsetCommit in a cluster. Clients send it to the group's coordinator (kafkajs and librdkafka
 * find it with FindCoordinator for the group), but Weir stages the offsets in the transaction, at
 * the coordinator of the transactional id (docs/architecture.md §5). When that is another broker,
 * the request is forwarded there (TxnOffsetCommit v2 on its internal listener, as the broker
 * principal, after this broker checked the client's ACLs), so the client is never told
 * NOT_COORDINATOR for a group it did find: kafkajs 2.2.4 fails the transaction on that code rather
 * than looking again. A request that arrived on the internal listener is never forwarded again, so
 * two brokers with different views cannot pass it back and forth. A transaction coordinator that
 * cannot be reached is COORDINATOR_NOT_AVAILABLE, which clients retry.
 */
export class RoutedOffsetStaging {
  constructor(private readonly deps: RoutedOffsetStagingDeps) {}

  async stageOffsets(
    claim: ProducerClaim,
    groupId: string,
    topics: StageOffsetsTopics,
    arrivedOn: ListenerName,
  ): Promise<PartitionErrors> {
    const { deps } = this;
    const stateTopic = deps.view.topic(TRANSACTION_STATE_TOPIC);
    if (arrivedOn === 'internal' || stateTopic === undefined)
      return deps.local.stageOffsets(claim, groupId, topics);
    const partition = partitionForKey(claim.transactionalId, stateTopic.partitionCount);
    const leader = deps.view.assignment(TRANSACTION_STATE_TOPIC, partition)?.leader ?? -1;
    if (leader >= 0 && !deps.isRemote(leader)) return deps.local.stageOffsets(claim, groupId, topics);
    const every = (errorCode: number): PartitionErrors =>
      topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map(({ partitionIndex }) => ({ partitionIndex, errorCode })),
      }));
    if (leader < 0) return every(ErrorCode.COORDINATOR_NOT_AVAILABLE);
    try {
      const answer = await deps.peers.send(leader, TxnOffsetCommit, {
        transactionalId: claim.transactionalId,
        groupId,
        producerId: claim.producerId,
        producerEpoch: claim.producerEpoch,
        topics: topics.map((topic) => ({
          name: topic.name,
          partitions: topic.partitions.map((row) => ({
            partitionIndex: row.partitionIndex,
            committedOffset: BigInt(row.offset),
            committedLeaderEpoch: row.leaderEpoch,
            committedMetadata: row.metadata,
          })),
        })),
      });
      return answer.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map(({ partitionIndex, errorCode }) => ({ partitionIndex, errorCode })),
      }));
    } catch (error) {
      if (error instanceof WeirError) return every(ErrorCode.COORDINATOR_NOT_AVAILABLE);
      throw error;
    }
  }
}
