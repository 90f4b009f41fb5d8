import { ErrorCode } from '@weir/protocol';
import {
  type InitProducerIdOutcome,
  type PartitionErrors,
  type ProducerClaim,
  type StageOffsetsTopics,
  stageOffsets,
  type TransactionCoordinatorDeps,
} from './coordinator-types';
import type {
  TopicPartitionRef,
  TransactionMembership,
  TransactionMembershipCheck,
  TransactionMembershipQuery,
  TransactionResult,
} from './transaction-contracts';
import {
  copyMetadata,
  MAX_PRODUCER_EPOCH,
  newTransactionMetadata,
  partitionKey,
  type TransactionMetadata,
  transition,
} from './transaction-metadata';
import type { TransactionShard } from './transaction-shard';
import { TransactionShards } from './transaction-shards';
import { isCompleting, isIdle } from './transaction-state';
import type { TransactionTable } from './transaction-table';
import { type TransactionView, viewOf } from './transaction-views';

/**
 * The transaction coordinator (docs/architecture.md §5; docs/kafka-compat.md §7 "Transaction coordinator"): the
 * requests of transactional producers and operators, routed to the shard of the id's
 * `__transaction_state` partition ({@link TransactionShards}; NOT_COORDINATOR when this broker does
 * not lead it, COORDINATOR_LOAD_IN_PROGRESS while it loads). Every change of an id runs in the id's
 * queue and is installed only once the log has it ({@link TransactionTable}). EndTxn answers once
 * the markers are written and the offsets applied (TransactionFinisher), so kafkajs never meets
 * CONCURRENT_TRANSACTIONS in its next transaction; that code is answered only while a commit or
 * abort is actually being written.
 */
export class TransactionCoordinator implements TransactionMembershipCheck {
  readonly #deps: TransactionCoordinatorDeps;
  readonly #shards: TransactionShards;

  constructor(deps: TransactionCoordinatorDeps) {
    this.#deps = deps;
    this.#shards = new TransactionShards(deps);
  }

  /**
   * This broker now leads `partition` at `leaderEpoch` (its coordinator epoch): the partition is
   * replayed, its ids are served once that is done, and the transactions it found prepared are
   * completed right after. Resolves when the load has finished, loaded or failed. A newer epoch
   * than the shard's reloads the partition, the same epoch changes nothing, an older one is ignored.
   */
  onBecomeLeader(partition: number, leaderEpoch: number): Promise<void> {
    return this.#shards.becomeLeader(partition, leaderEpoch);
  }

  /** This broker no longer leads `partition`: its ids are forgotten and answer NOT_COORDINATOR. */
  onResign(partition: number): void {
    this.#shards.resign(partition);
  }

  /** Resolves once no shard this coordinator leads is loading. */
  whenLoaded(): Promise<void> {
    return this.#shards.whenLoaded();
  }

  /** Resolves once every loaded shard made its first attempt at the transactions it found prepared. */
  whenRecovered(): Promise<void> {
    return this.#shards.whenRecovered();
  }

  /** For /ready: loaded, and every transaction found prepared at load is complete. */
  readiness(): { ok: boolean; detail: string; impact?: 'degraded' } {
    return this.#shards.readiness();
  }

  /** Stops the timers and retries; requests get NOT_COORDINATOR from now on. */
  shutdown(): void {
    this.#shards.shutdown();
  }

  /** Kafka's checks, in Kafka's order; fencing is INVALID_PRODUCER_EPOCH at these versions (docs/kafka-compat.md §0.9). */
  #claimError(current: TransactionMetadata | undefined, claim: ProducerClaim): number {
    if (!current || current.producerId !== claim.producerId) return ErrorCode.INVALID_PRODUCER_ID_MAPPING;
    if (current.producerEpoch !== claim.producerEpoch) return ErrorCode.INVALID_PRODUCER_EPOCH;
    if (isCompleting(current.state)) return ErrorCode.CONCURRENT_TRANSACTIONS;
    return ErrorCode.NONE;
  }

  /** A request that finds its id mid-commit or mid-abort is told to come back (CONCURRENT_TRANSACTIONS). */
  #busyError(table: TransactionTable, transactionalId: string): number {
    const current = table.get(transactionalId);
    return current && isCompleting(current.state) ? ErrorCode.CONCURRENT_TRANSACTIONS : ErrorCode.NONE;
  }

  /**
   * InitProducerId with a transactional id: the first call allocates a producer id, every later one
   * bumps the epoch (fencing older producers). An open transaction is aborted first, with the epoch
   * bumped for its markers, and only then does the call answer.
   */
  async initProducerId(transactionalId: string, timeoutMs: number): Promise<InitProducerIdOutcome> {
    const failed = (errorCode: number) => ({ errorCode, producerId: -1n, producerEpoch: -1 });
    if (transactionalId === '') return failed(ErrorCode.INVALID_REQUEST);
    if (this.#shards.awaitsTopic) {
      const created = await this.#shards.ensureTopic();
      if (created !== ErrorCode.NONE) return failed(created);
    }
    const route = this.#shards.route(transactionalId);
    if (!route.shard) return failed(route.errorCode);
    const { table, finisher } = route.shard;
    if (timeoutMs <= 0 || timeoutMs > this.#deps.config.maxTimeoutMs)
      return failed(ErrorCode.INVALID_TRANSACTION_TIMEOUT);
    const busy = this.#busyError(table, transactionalId);
    if (busy !== ErrorCode.NONE) return failed(busy);
    return table.queue.run(transactionalId, async () => {
      const nowMs = this.#deps.scheduler.nowMs();
      let current = table.get(transactionalId);
      if (!current) {
        const producerId = await this.#deps.allocateProducerId();
        const created = newTransactionMetadata(transactionalId, {
          producerId,
          producerEpoch: 0,
          timeoutMs,
          nowMs,
        });
        const errorCode = await table.persist(created);
        return errorCode === ErrorCode.NONE ? { errorCode, producerId, producerEpoch: 0 } : failed(errorCode);
      }
      if (current.state === 'Ongoing') {
        const errorCode = await finisher.fenceAndAbort(
          current,
          'a new producer initialised the transactional id',
        );
        if (errorCode !== ErrorCode.NONE) return failed(errorCode);
        current = table.get(transactionalId);
      }
      if (!current || !isIdle(current.state)) return failed(ErrorCode.CONCURRENT_TRANSACTIONS);
      const next = copyMetadata(current);
      if (next.producerEpoch + 1 >= MAX_PRODUCER_EPOCH) {
        // Kafka's rule: an epoch about to run out moves the id to a new producer id at epoch 0.
        next.producerId = await this.#deps.allocateProducerId();
        next.producerEpoch = 0;
      } else {
        next.producerEpoch += 1;
      }
      next.timeoutMs = timeoutMs;
      transition(next, 'Empty', nowMs);
      const errorCode = await table.persist(next);
      if (errorCode !== ErrorCode.NONE) return failed(errorCode);
      return { errorCode, producerId: next.producerId, producerEpoch: next.producerEpoch };
    });
  }

  /** AddPartitionsToTxn: unknown partitions fail the request (the others get OPERATION_NOT_ATTEMPTED). */
  async addPartitions(
    claim: ProducerClaim,
    partitions: readonly TopicPartitionRef[],
  ): Promise<Map<string, number>> {
    const every = (errorCode: number) =>
      new Map(partitions.map((partition) => [partitionKey(partition), errorCode]));
    const route = this.#shards.route(claim.transactionalId);
    if (!route.shard) return every(route.errorCode);
    const unknown = partitions.filter(
      ({ topic, partition }) => !this.#deps.catalog.hasPartition(topic, partition),
    );
    if (unknown.length > 0) {
      const errors = every(ErrorCode.OPERATION_NOT_ATTEMPTED);
      for (const partition of unknown)
        errors.set(partitionKey(partition), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      return errors;
    }
    const errorCode = await this.#extend(route.shard, claim, (next) => {
      let changed = false;
      for (const partition of partitions) {
        const key = partitionKey(partition);
        if (!next.partitions.has(key)) {
          next.partitions.set(key, { topic: partition.topic, partition: partition.partition });
          changed = true;
        }
      }
      return changed;
    });
    return every(errorCode);
  }

  /** AddOffsetsToTxn: the group's offsets may now be staged with TxnOffsetCommit. */
  async addOffsets(claim: ProducerClaim, groupId: string): Promise<number> {
    if (groupId === '') return ErrorCode.INVALID_GROUP_ID;
    const route = this.#shards.route(claim.transactionalId);
    if (!route.shard) return route.errorCode;
    return this.#extend(route.shard, claim, (next) => {
      if (next.offsetGroups.has(groupId)) return false;
      next.offsetGroups.set(groupId, new Map());
      return true;
    });
  }

  /**
   * Starts or extends the open transaction of a valid claim. `change` edits a copy and says whether
   * anything changed: only changes are written to `__transaction_state`.
   */
  #extend(
    shard: TransactionShard,
    claim: ProducerClaim,
    change: (next: TransactionMetadata) => boolean,
  ): Promise<number> {
    const { table } = shard;
    const busy = this.#busyError(table, claim.transactionalId);
    if (busy !== ErrorCode.NONE) return Promise.resolve(busy);
    return table.queue.run(claim.transactionalId, async () => {
      const current = table.get(claim.transactionalId);
      const claimError = this.#claimError(current, claim);
      if (claimError !== ErrorCode.NONE || !current) return claimError;
      if (current.state !== 'Ongoing' && !isIdle(current.state)) return ErrorCode.INVALID_TXN_STATE;
      const next = copyMetadata(current);
      const changed = change(next);
      if (!changed && current.state === 'Ongoing') return ErrorCode.NONE;
      transition(next, 'Ongoing', this.#deps.scheduler.nowMs());
      return table.persist(next);
    });
  }

  /**
   * TxnOffsetCommit: stages offsets for a group added with AddOffsetsToTxn. They become the group's
   * committed offsets when the transaction commits, and are dropped when it aborts.
   */
  async stageOffsets(
    claim: ProducerClaim,
    groupId: string,
    topics: StageOffsetsTopics,
  ): Promise<PartitionErrors> {
    const every = (errorCode: number): PartitionErrors =>
      topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map(({ partitionIndex }) => ({ partitionIndex, errorCode })),
      }));
    const route = this.#shards.route(claim.transactionalId);
    if (!route.shard) return every(route.errorCode);
    const { table } = route.shard;
    const busy = this.#busyError(table, claim.transactionalId);
    if (busy !== ErrorCode.NONE) return every(busy);
    return table.queue.run(claim.transactionalId, async () => {
      const current = table.get(claim.transactionalId);
      const claimError = this.#claimError(current, claim);
      if (claimError !== ErrorCode.NONE || !current) return every(claimError);
      if (current.state !== 'Ongoing' || !current.offsetGroups.has(groupId))
        return every(ErrorCode.INVALID_TXN_STATE);
      const next = copyMetadata(current);
      const errors = stageOffsets(next.offsetGroups.get(groupId)!, topics, this.#deps.catalog);
      next.lastUpdateMs = this.#deps.scheduler.nowMs();
      const writeError = await table.persist(next);
      return topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map(({ partitionIndex }) => ({
          partitionIndex,
          errorCode: errors.get(partitionKey({ topic: topic.name, partition: partitionIndex })) ?? writeError,
        })),
      }));
    });
  }

  /**
   * EndTxn: the decision is made durable (PrepareCommit/PrepareAbort), markers are written to every
   * partition, a commit's offsets are applied, the outcome is recorded, and only then the answer
   * goes. A retry with the same result after completion succeeds; the other result is refused.
   */
  async endTransaction(claim: ProducerClaim, result: TransactionResult): Promise<number> {
    const route = this.#shards.route(claim.transactionalId);
    if (!route.shard) return route.errorCode;
    const { table, finisher } = route.shard;
    const busy = this.#busyError(table, claim.transactionalId);
    if (busy !== ErrorCode.NONE) return busy;
    return table.queue.run(claim.transactionalId, async () => {
      const current = table.get(claim.transactionalId);
      const claimError = this.#claimError(current, claim);
      if (claimError !== ErrorCode.NONE || !current) return claimError;
      switch (current.state) {
        case 'Ongoing':
          return finisher.prepareAndComplete(current, result === 'commit' ? 'PrepareCommit' : 'PrepareAbort');
        case 'CompleteCommit':
          return result === 'commit' ? ErrorCode.NONE : ErrorCode.INVALID_TXN_STATE;
        case 'CompleteAbort':
          return result === 'abort' ? ErrorCode.NONE : ErrorCode.INVALID_TXN_STATE;
        default:
          return ErrorCode.INVALID_TXN_STATE;
      }
    });
  }

  /**
   * Aborts an open transaction on behalf of an operator (a hanging transaction): the epoch is bumped,
   * so the producer that left it open is fenced. Logged with who asked and why.
   */
  async abortByOperator(transactionalId: string, principal: string, reason: string): Promise<number> {
    const route = this.#shards.route(transactionalId);
    if (!route.shard) return route.errorCode;
    const { table, finisher } = route.shard;
    const busy = this.#busyError(table, transactionalId);
    if (busy !== ErrorCode.NONE) return busy;
    return table.queue.run(transactionalId, async () => {
      const current = table.get(transactionalId);
      if (!current) return ErrorCode.TRANSACTIONAL_ID_NOT_FOUND;
      if (current.state !== 'Ongoing') return ErrorCode.INVALID_TXN_STATE;
      this.#deps.logger.warn(
        {
          transactionalId,
          principal,
          reason,
          producerId: String(current.producerId),
          producerEpoch: current.producerEpoch,
          partitions: current.partitions.size,
        },
        'transaction aborted by an operator',
      );
      return finisher.fenceAndAbort(current, `aborted by ${principal}: ${reason}`);
    });
  }

  /** The produce path's question (transaction-contracts.ts): may this producer append here? */
  membership(query: TransactionMembershipQuery): Promise<TransactionMembership> {
    return this.#shards.membership(query);
  }

  /** One id's view for DescribeTransactions; TRANSACTIONAL_ID_NOT_FOUND when the id is unknown. */
  describe(transactionalId: string): { errorCode: number; view?: TransactionView } {
    const route = this.#shards.route(transactionalId);
    if (!route.shard) return { errorCode: route.errorCode };
    const current = route.shard.table.get(transactionalId);
    return current
      ? { errorCode: ErrorCode.NONE, view: viewOf(current) }
      : { errorCode: ErrorCode.TRANSACTIONAL_ID_NOT_FOUND };
  }

  /** Every id of the served shards, sorted; the error says whether the list may be incomplete. */
  list(): { errorCode: number; transactions: TransactionView[] } {
    if (this.#shards.stopped) return { errorCode: ErrorCode.NOT_COORDINATOR, transactions: [] };
    const errorCode = this.#shards.loaded ? ErrorCode.NONE : ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
    const transactions = this.#shards
      .active()
      .flatMap((shard) => shard.table.values())
      .map(viewOf)
      .sort((left, right) =>
        left.transactionalId < right.transactionalId
          ? -1
          : left.transactionalId > right.transactionalId
            ? 1
            : 0,
      );
    return { errorCode, transactions };
  }
}
