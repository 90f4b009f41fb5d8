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
  TransactionResult,
} from './transaction-contracts';
import { TransactionFinisher } from './transaction-finisher';
import type { TransactionLogSource } from './transaction-log';
import {
  copyMetadata,
  MAX_PRODUCER_EPOCH,
  newTransactionMetadata,
  partitionKey,
  type TransactionMetadata,
  transition,
} from './transaction-metadata';
import { isCompleting, isIdle } from './transaction-state';
import { TransactionTable } from './transaction-table';
import { TransactionTimers } from './transaction-timers';
import { type TransactionView, viewOf } from './transaction-views';

type Status = 'starting' | 'loading' | 'recovering' | 'active' | 'stopped';

/**
 * The transaction coordinator (docs/architecture.md §5; docs/kafka-compat.md §7 "Transaction coordinator"): the
 * requests of transactional producers and operators, gated on the load of `__transaction_state`.
 * Every change of an id runs in the id's queue and is installed only once the log has it
 * ({@link TransactionTable}). EndTxn answers once the markers are written and the offsets applied
 * ({@link TransactionFinisher}), so kafkajs never meets CONCURRENT_TRANSACTIONS in its next
 * transaction; that code is answered only while a commit or abort is actually being written.
 */
export class TransactionCoordinator implements TransactionMembershipCheck {
  readonly #deps: TransactionCoordinatorDeps;
  readonly #table: TransactionTable;
  readonly #finisher: TransactionFinisher;
  readonly #timers: TransactionTimers;
  readonly #failedPartitions = new Set<number>();
  #status: Status = 'starting';

  constructor(deps: TransactionCoordinatorDeps) {
    this.#deps = deps;
    this.#table = new TransactionTable(deps.store, deps.observer, deps.logger);
    this.#finisher = new TransactionFinisher({
      table: this.#table,
      markers: deps.markers,
      offsets: deps.offsets,
      scheduler: deps.scheduler,
      logger: deps.logger,
      observer: deps.observer,
      completionRetryMs: deps.config.completionRetryMs,
      running: () => this.#status !== 'stopped',
    });
    this.#timers = new TransactionTimers({
      table: this.#table,
      finisher: this.#finisher,
      scheduler: deps.scheduler,
      logger: deps.logger,
      idExpirationMs: deps.config.idExpirationMs,
      checkIntervalMs: deps.config.abortTimedOutCheckIntervalMs,
    });
  }

  /**
   * Replays `__transaction_state` (before the listeners open, so the produce path's membership
   * check knows every open transaction from the first request). A partition that cannot be read is
   * marked failed: its ids get COORDINATOR_NOT_AVAILABLE, the others are served.
   */
  async load(source: TransactionLogSource): Promise<{ transactions: number; records: number }> {
    if (this.#status !== 'starting') {
      throw new Error(`the transaction coordinator cannot load while ${this.#status}`);
    }
    this.#status = 'loading';
    let records = 0;
    for (let partition = 0; partition < source.partitionCount; partition++) {
      const loaded = new Map<string, TransactionMetadata | null>();
      try {
        const report = await source.replay(partition, (record) =>
          loaded.set(record.transactionalId, record.value),
        );
        records += report.records;
      } catch (error) {
        this.#failedPartitions.add(partition);
        this.#deps.logger.warn({ partition, err: error }, 'loading a __transaction_state partition failed');
        continue;
      }
      for (const metadata of loaded.values()) {
        if (!metadata) continue;
        // A fence is never written on its own (its abort is), but a record that says so means abort.
        if (metadata.state === 'PrepareEpochFence')
          transition(metadata, 'PrepareAbort', metadata.lastUpdateMs);
        this.#table.install(metadata);
      }
    }
    this.#status = 'recovering';
    return { transactions: this.#table.size, records };
  }

  /**
   * Completes every transaction that was between its decision and its markers when the broker
   * stopped (PrepareCommit, PrepareAbort), then serves requests. Runs once the partitions and the
   * group coordinator are loaded, since completion writes to both. One attempt each: a failure is
   * retried in the background, and /ready stays false until it succeeds.
   */
  async recover(): Promise<{ completed: number; pending: number }> {
    if (this.#status !== 'recovering') {
      throw new Error(`the transaction coordinator cannot recover while ${this.#status}`);
    }
    const prepared = this.#table.values().filter((metadata) => isCompleting(metadata.state));
    for (const metadata of prepared) this.#finisher.pendingRecovery.add(metadata.transactionalId);
    let completed = 0;
    for (const metadata of prepared) {
      if (this.#isStopped()) break;
      const errorCode = await this.#table.queue.run(metadata.transactionalId, () =>
        this.#finisher.complete(metadata),
      );
      if (errorCode === ErrorCode.NONE) completed += 1;
    }
    if (this.#isStopped()) return { completed, pending: prepared.length - completed };
    this.#status = 'active';
    this.#timers.start();
    return { completed, pending: prepared.length - completed };
  }

  /** For /ready: loaded, and every transaction found prepared at start is complete. */
  readiness(): { ok: boolean; detail: string } {
    if (this.#status === 'loading' || this.#status === 'starting') return { ok: false, detail: 'loading' };
    const pending = this.#finisher.pendingRecovery.size;
    if (this.#status === 'recovering' || pending > 0) {
      return { ok: false, detail: `completing ${pending} transactions prepared before the restart` };
    }
    if (this.#failedPartitions.size > 0) {
      const failed = [...this.#failedPartitions].join(', ');
      return { ok: false, detail: `__transaction_state partitions failed to load: ${failed}` };
    }
    return { ok: true, detail: 'transactions loaded' };
  }

  /** Stops the timers and retries; requests get NOT_COORDINATOR from now on. */
  shutdown(): void {
    this.#status = 'stopped';
    this.#timers.stop();
  }

  /** A separate read, because the status may change while recovery awaits (shutdown). */
  #isStopped(): boolean {
    return this.#status === 'stopped';
  }

  /** Whether requests for this id can be served now; the error to answer otherwise. */
  #gate(transactionalId: string): number {
    if (this.#status === 'stopped') return ErrorCode.NOT_COORDINATOR;
    if (this.#status !== 'active') return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
    if (
      this.#failedPartitions.size > 0 &&
      this.#failedPartitions.has(this.#table.partitionOf(transactionalId))
    )
      return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    return ErrorCode.NONE;
  }

  /** Kafka's checks, in Kafka's order; fencing is INVALID_PRODUCER_EPOCH at these versions (docs/kafka-compat.md §0.9). */
  #claimError(current: TransactionMetadata | undefined, claim: ProducerClaim): number {
    if (!current || current.producerId !== claim.producerId) return ErrorCode.INVALID_PRODUCER_ID_MAPPING;
    if (current.producerEpoch !== claim.producerEpoch) return ErrorCode.INVALID_PRODUCER_EPOCH;
    if (isCompleting(current.state)) return ErrorCode.CONCURRENT_TRANSACTIONS;
    return ErrorCode.NONE;
  }

  /** A request that finds its id mid-commit or mid-abort is told to come back (CONCURRENT_TRANSACTIONS). */
  #busyError(transactionalId: string): number {
    const current = this.#table.get(transactionalId);
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
    const gate = this.#gate(transactionalId);
    if (gate !== ErrorCode.NONE) return failed(gate);
    if (timeoutMs <= 0 || timeoutMs > this.#deps.config.maxTimeoutMs)
      return failed(ErrorCode.INVALID_TRANSACTION_TIMEOUT);
    const busy = this.#busyError(transactionalId);
    if (busy !== ErrorCode.NONE) return failed(busy);
    return this.#table.queue.run(transactionalId, async () => {
      const nowMs = this.#deps.scheduler.nowMs();
      let current = this.#table.get(transactionalId);
      if (!current) {
        const producerId = await this.#deps.allocateProducerId();
        const created = newTransactionMetadata(transactionalId, {
          producerId,
          producerEpoch: 0,
          timeoutMs,
          nowMs,
        });
        const errorCode = await this.#table.persist(created);
        return errorCode === ErrorCode.NONE ? { errorCode, producerId, producerEpoch: 0 } : failed(errorCode);
      }
      if (current.state === 'Ongoing') {
        const errorCode = await this.#finisher.fenceAndAbort(
          current,
          'a new producer initialised the transactional id',
        );
        if (errorCode !== ErrorCode.NONE) return failed(errorCode);
        current = this.#table.get(transactionalId);
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
      const errorCode = await this.#table.persist(next);
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
    const gate = this.#gate(claim.transactionalId);
    if (gate !== ErrorCode.NONE) return every(gate);
    const unknown = partitions.filter(
      ({ topic, partition }) => !this.#deps.catalog.hasPartition(topic, partition),
    );
    if (unknown.length > 0) {
      const errors = every(ErrorCode.OPERATION_NOT_ATTEMPTED);
      for (const partition of unknown)
        errors.set(partitionKey(partition), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      return errors;
    }
    const errorCode = await this.#extend(claim, (next) => {
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
    const gate = this.#gate(claim.transactionalId);
    if (gate !== ErrorCode.NONE) return gate;
    return this.#extend(claim, (next) => {
      if (next.offsetGroups.has(groupId)) return false;
      next.offsetGroups.set(groupId, new Map());
      return true;
    });
  }

  /**
   * Starts or extends the open transaction of a valid claim. `change` edits a copy and says whether
   * anything changed: only changes are written to `__transaction_state`.
   */
  #extend(claim: ProducerClaim, change: (next: TransactionMetadata) => boolean): Promise<number> {
    const busy = this.#busyError(claim.transactionalId);
    if (busy !== ErrorCode.NONE) return Promise.resolve(busy);
    return this.#table.queue.run(claim.transactionalId, async () => {
      const current = this.#table.get(claim.transactionalId);
      const claimError = this.#claimError(current, claim);
      if (claimError !== ErrorCode.NONE || !current) return claimError;
      if (current.state !== 'Ongoing' && !isIdle(current.state)) return ErrorCode.INVALID_TXN_STATE;
      const next = copyMetadata(current);
      const changed = change(next);
      if (!changed && current.state === 'Ongoing') return ErrorCode.NONE;
      transition(next, 'Ongoing', this.#deps.scheduler.nowMs());
      return this.#table.persist(next);
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
    const gate = this.#gate(claim.transactionalId);
    if (gate !== ErrorCode.NONE) return every(gate);
    const busy = this.#busyError(claim.transactionalId);
    if (busy !== ErrorCode.NONE) return every(busy);
    return this.#table.queue.run(claim.transactionalId, async () => {
      const current = this.#table.get(claim.transactionalId);
      const claimError = this.#claimError(current, claim);
      if (claimError !== ErrorCode.NONE || !current) return every(claimError);
      if (current.state !== 'Ongoing' || !current.offsetGroups.has(groupId))
        return every(ErrorCode.INVALID_TXN_STATE);
      const next = copyMetadata(current);
      const errors = stageOffsets(next.offsetGroups.get(groupId)!, topics, this.#deps.catalog);
      next.lastUpdateMs = this.#deps.scheduler.nowMs();
      const writeError = await this.#table.persist(next);
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
    const gate = this.#gate(claim.transactionalId);
    if (gate !== ErrorCode.NONE) return gate;
    const busy = this.#busyError(claim.transactionalId);
    if (busy !== ErrorCode.NONE) return busy;
    return this.#table.queue.run(claim.transactionalId, async () => {
      const current = this.#table.get(claim.transactionalId);
      const claimError = this.#claimError(current, claim);
      if (claimError !== ErrorCode.NONE || !current) return claimError;
      switch (current.state) {
        case 'Ongoing':
          return this.#finisher.prepareAndComplete(
            current,
            result === 'commit' ? 'PrepareCommit' : 'PrepareAbort',
          );
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
    const gate = this.#gate(transactionalId);
    if (gate !== ErrorCode.NONE) return gate;
    const busy = this.#busyError(transactionalId);
    if (busy !== ErrorCode.NONE) return busy;
    return this.#table.queue.run(transactionalId, async () => {
      const current = this.#table.get(transactionalId);
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
      return this.#finisher.fenceAndAbort(current, `aborted by ${principal}: ${reason}`);
    });
  }

  /** The produce path's question (transaction-contracts.ts): may this producer append here? */
  membership(producerId: bigint, producerEpoch: number, partition: TopicPartitionRef): TransactionMembership {
    return this.#table.membership(producerId, producerEpoch, partition);
  }

  /** One id's view for DescribeTransactions; TRANSACTIONAL_ID_NOT_FOUND when the id is unknown. */
  describe(transactionalId: string): { errorCode: number; view?: TransactionView } {
    const gate = this.#gate(transactionalId);
    if (gate !== ErrorCode.NONE) return { errorCode: gate };
    const current = this.#table.get(transactionalId);
    return current
      ? { errorCode: ErrorCode.NONE, view: viewOf(current) }
      : { errorCode: ErrorCode.TRANSACTIONAL_ID_NOT_FOUND };
  }

  /** Every known id, sorted; the error says whether the list may be incomplete. */
  list(): { errorCode: number; transactions: TransactionView[] } {
    if (this.#status === 'stopped') return { errorCode: ErrorCode.NOT_COORDINATOR, transactions: [] };
    const errorCode = this.#status === 'active' ? ErrorCode.NONE : ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
    const transactions = this.#table
      .values()
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
