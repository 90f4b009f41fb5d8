import { ErrorCode, WeirVerifyTransactionMembership } from '@weir/protocol';
import { partitionForKey } from '../coordination/partition-for-key';
import type { ClusterView } from '../metadata/cluster-view';
import type {
  TransactionMembership,
  TransactionMembershipCheck,
  TransactionMembershipQuery,
} from '../txn/transaction-contracts';
import { TRANSACTION_STATE_TOPIC } from '../txn/transaction-log';
import type { InterBrokerClient } from './inter-broker-client';

/** The coordinator's answer codes (WeirVerifyTransactionMembership) as the produce path's verdicts. */
const VERDICT_BY_CODE: ReadonlyMap<number, TransactionMembership> = new Map([
  [ErrorCode.NONE, 'member'],
  [ErrorCode.INVALID_TXN_STATE, 'not-member'],
  [ErrorCode.INVALID_PRODUCER_EPOCH, 'fenced'],
]);

export interface RoutedMembershipCheckDeps {
  view: Pick<ClusterView, 'topic' | 'assignment'>;
  /** This broker's transaction coordinator, for the ids whose `__transaction_state` partition it leads. */
  local: TransactionMembershipCheck;
  peers: Pick<InterBrokerClient, 'send'>;
  /** Whether the coordinator `leader` is asked through the network (true for every other broker). */
  isRemote(leader: number): boolean;
  /** Told about a coordinator that could not be asked; the produce is answered NOT_ENOUGH_REPLICAS. */
  onUnreachable?(leader: number, error: unknown): void;
}

/**
 * The produce path's membership question in a cluster (docs/architecture.md §6.1): asked of the
 * coordinator of the producer's transactional id, the leader of the id's `__transaction_state`
 * partition. This broker's coordinator answers directly; another broker's is asked with
 * WeirVerifyTransactionMembership on its internal listener (Kafka asks with AddPartitionsToTxn v4
 * verify-only, which is flexible). A coordinator without a leader, unreachable, loading or no
 * longer the coordinator is 'unavailable', which the producer sees as the retriable
 * NOT_ENOUGH_REPLICAS. Without a transactional id (no Produce v3+ from a transactional producer
 * lacks one) only this broker's coordinator can be searched by producer id.
 */
export class RoutedMembershipCheck implements TransactionMembershipCheck {
  constructor(private readonly deps: RoutedMembershipCheckDeps) {}

  async membership(query: TransactionMembershipQuery): Promise<TransactionMembership> {
    const { deps } = this;
    const { transactionalId } = query;
    const stateTopic = deps.view.topic(TRANSACTION_STATE_TOPIC);
    // Before `__transaction_state` exists no id has state anywhere; the local coordinator says so.
    if (transactionalId === null || stateTopic === undefined) return deps.local.membership(query);
    const partition = partitionForKey(transactionalId, stateTopic.partitionCount);
    const leader = deps.view.assignment(TRANSACTION_STATE_TOPIC, partition)?.leader ?? -1;
    if (leader < 0) return 'unavailable';
    if (!deps.isRemote(leader)) return deps.local.membership(query);
    try {
      const answer = await deps.peers.send(leader, WeirVerifyTransactionMembership, {
        transactionalId,
        producerId: query.producerId,
        producerEpoch: query.producerEpoch,
        topic: query.topic,
        partition: query.partition,
      });
      return VERDICT_BY_CODE.get(answer.errorCode) ?? 'unavailable';
    } catch (error) {
      deps.onUnreachable?.(leader, error);
      return 'unavailable';
    }
  }
}
