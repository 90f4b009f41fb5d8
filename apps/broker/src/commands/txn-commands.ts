import { ErrorCode, WeirError } from '@weir/protocol';
import type { ProducerEntry } from '../log/producer-state';
import type { TopicManager } from '../topics/topic-manager';
import type {
  InitProducerIdOutcome,
  PartitionErrors,
  ProducerClaim,
  StageOffsetsTopics,
} from '../txn/coordinator-types';
import type { TopicPartitionRef } from '../txn/transaction-contracts';
import type { TransactionCoordinator } from '../txn/transaction-coordinator';
import { partitionKey } from '../txn/transaction-metadata';
import { isTransactionState, type TransactionState } from '../txn/transaction-state';
import type { TransactionView } from '../txn/transaction-views';
import { failureOf } from './command-result';

/** One row of DescribeTransactions: the view, or why there is none. */
export type DescribedTransaction =
  | { transactionalId: string; errorCode: 0; view: TransactionView }
  | { transactionalId: string; errorCode: number; view?: undefined };

export interface ListedTransactions {
  errorCode: number;
  /** State filters that name no state; Kafka reports them back instead of failing. */
  unknownStateFilters: string[];
  transactions: { transactionalId: string; producerId: bigint; state: TransactionState }[];
}

/** A producer with state on a partition, as DescribeProducers reports it. */
export interface ActiveProducer {
  producerId: bigint;
  producerEpoch: number;
  /** The last sequence of its latest batch; -1 when it has written only markers. */
  lastSequence: number;
  lastTimestampMs: number;
  coordinatorEpoch: number;
  /** The first offset of its open transaction on this partition, or -1. */
  currentTxnStartOffset: number;
}

export interface DescribedProducers {
  topic: string;
  partition: number;
  errorCode: number;
  errorMessage: string | null;
  producers: ActiveProducer[];
}

/**
 * Transactions at the internal command boundary: the transactional producer's requests
 * (InitProducerId with an id, AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit, EndTxn), the
 * inspection views (DescribeTransactions, ListTransactions, DescribeProducers) and the operator's
 * abort of a hanging transaction. Answers are error codes per item, as the wire has them.
 */
export class TransactionCommands {
  constructor(
    private readonly coordinator: TransactionCoordinator,
    private readonly topics: TopicManager,
  ) {}

  initProducerId(transactionalId: string, transactionTimeoutMs: number): Promise<InitProducerIdOutcome> {
    return this.coordinator.initProducerId(transactionalId, transactionTimeoutMs);
  }

  async addPartitions(
    claim: ProducerClaim,
    topics: readonly { name: string; partitions: readonly number[] }[],
  ): Promise<PartitionErrors> {
    const partitions: TopicPartitionRef[] = topics.flatMap((topic) =>
      topic.partitions.map((partition) => ({ topic: topic.name, partition })),
    );
    const errors = await this.coordinator.addPartitions(claim, partitions);
    return topics.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions.map((partitionIndex) => ({
        partitionIndex,
        errorCode:
          errors.get(partitionKey({ topic: topic.name, partition: partitionIndex })) ?? ErrorCode.NONE,
      })),
    }));
  }

  addOffsets(claim: ProducerClaim, groupId: string): Promise<number> {
    return this.coordinator.addOffsets(claim, groupId);
  }

  txnOffsetCommit(
    claim: ProducerClaim,
    groupId: string,
    topics: StageOffsetsTopics,
  ): Promise<PartitionErrors> {
    return this.coordinator.stageOffsets(claim, groupId, topics);
  }

  endTxn(claim: ProducerClaim, committed: boolean): Promise<number> {
    return this.coordinator.endTransaction(claim, committed ? 'commit' : 'abort');
  }

  describeTransactions(transactionalIds: readonly string[]): DescribedTransaction[] {
    return transactionalIds.map((transactionalId) => {
      const { errorCode, view } = this.coordinator.describe(transactionalId);
      return view ? { transactionalId, errorCode: 0, view } : { transactionalId, errorCode };
    });
  }

  /** Empty filters match everything; a state filter that names no state is reported back. */
  listTransactions(
    stateFilters: readonly string[],
    producerIdFilters: readonly bigint[],
  ): ListedTransactions {
    const { errorCode, transactions } = this.coordinator.list();
    const states = new Set(stateFilters);
    const producerIds = new Set(producerIdFilters);
    return {
      errorCode,
      unknownStateFilters: stateFilters.filter((state) => !isTransactionState(state)),
      transactions: transactions
        .filter((view) => states.size === 0 || states.has(view.state))
        .filter((view) => producerIds.size === 0 || producerIds.has(view.producerId))
        .map((view) => ({
          transactionalId: view.transactionalId,
          producerId: view.producerId,
          state: view.state,
        })),
    };
  }

  /** The producers each partition's log keeps state for (idempotence and open transactions). */
  describeProducers(
    topics: readonly { name: string; partitions: readonly number[] }[],
  ): DescribedProducers[] {
    return topics.flatMap((topic) =>
      topic.partitions.map((partition) => {
        try {
          const log = this.topics.partitionLog(topic.name, partition);
          const producers = log.producerState.snapshot().entries.map(activeProducerOf);
          return { topic: topic.name, partition, errorCode: ErrorCode.NONE, errorMessage: null, producers };
        } catch (error) {
          const failure = failureOf(error);
          return {
            topic: topic.name,
            partition,
            errorCode: failure.errorCode,
            errorMessage: failure.errorMessage,
            producers: [],
          };
        }
      }),
    );
  }

  /**
   * An operator's abort of a hanging transaction: the epoch is bumped (fencing the producer) and
   * ABORT markers are written. The coordinator logs it with the principal and the reason; a request
   * without a reason is refused.
   */
  async abortTransaction(transactionalId: string, reason: string, principal: string): Promise<void> {
    if (reason.trim() === '') {
      throw new WeirError(ErrorCode.INVALID_REQUEST, { detail: 'an abort needs a reason for the log' });
    }
    const errorCode = await this.coordinator.abortByOperator(transactionalId, principal, reason);
    if (errorCode !== ErrorCode.NONE) {
      throw new WeirError(errorCode, { detail: `transactional id "${transactionalId}"` });
    }
  }
}

function activeProducerOf(entry: ProducerEntry): ActiveProducer {
  const latest = entry.batches.at(-1);
  return {
    producerId: BigInt(entry.producerId),
    producerEpoch: entry.producerEpoch,
    lastSequence: latest?.lastSequence ?? -1,
    lastTimestampMs: entry.lastTimestampMs,
    coordinatorEpoch: entry.coordinatorEpoch,
    currentTxnStartOffset: entry.currentTransactionFirstOffset,
  };
}
