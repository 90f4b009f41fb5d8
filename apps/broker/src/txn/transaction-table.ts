import { ErrorCode } from '@weir/protocol';
import type { CoordinatorLogger } from '../group/coordinator-context';
import { offsetsPartitionFor } from '../group/java-string-hash';
import { KeyedSerialQueue } from './keyed-serial-queue';
import type { TopicPartitionRef, TransactionMembership, TransactionResult } from './transaction-contracts';
import type { TransactionStore } from './transaction-log';
import { partitionKey, type TransactionMetadata } from './transaction-metadata';
import { isCompleting, type TransactionState } from './transaction-state';

/** Told about transactions for the metrics. */
export interface TransactionObserver {
  openTransactionsChanged(open: number): void;
  transactionCompleted(result: TransactionResult, durationMs: number): void;
}

/**
 * The coordinator's transactional ids and the one way to change them: a change is made on a copy,
 * written to the id's `__transaction_state` partition, and installed only once the write is
 * durable, so memory never runs ahead of the log. Every change of an id runs in {@link queue}.
 */
export class TransactionTable {
  readonly #transactions = new Map<string, TransactionMetadata>();
  /** Producer id → transactional id, for the produce path's membership check. */
  readonly #byProducerId = new Map<bigint, string>();
  readonly queue = new KeyedSerialQueue();
  #openCount = 0;

  constructor(
    private readonly store: TransactionStore,
    private readonly observer: TransactionObserver,
    private readonly logger: CoordinatorLogger,
  ) {}

  /** The `__transaction_state` partition of an id, hashed as Kafka does (like groups). */
  partitionOf(transactionalId: string): number {
    return offsetsPartitionFor(transactionalId, this.store.partitionCount);
  }

  get(transactionalId: string): TransactionMetadata | undefined {
    return this.#transactions.get(transactionalId);
  }

  values(): TransactionMetadata[] {
    return [...this.#transactions.values()];
  }

  get size(): number {
    return this.#transactions.size;
  }

  get openCount(): number {
    return this.#openCount;
  }

  /**
   * Writes `next` and installs it: once fdatasync'd, or with `durable: false` once written (only
   * for a record whose loss a crash recovery repairs; see TransactionFinisher.complete). On a
   * failed write nothing changes and the answer is COORDINATOR_NOT_AVAILABLE, which clients answer
   * by finding the coordinator again and retrying.
   */
  async persist(
    next: TransactionMetadata,
    options: { durable: boolean } = { durable: true },
  ): Promise<number> {
    try {
      await this.store.ensureCreated();
      await this.store.write(
        this.partitionOf(next.transactionalId),
        [{ transactionalId: next.transactionalId, value: next }],
        options,
      );
    } catch (error) {
      this.logger.warn(
        { transactionalId: next.transactionalId, err: error },
        'writing transaction state failed',
      );
      return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    }
    this.install(next);
    return ErrorCode.NONE;
  }

  /** Installs metadata that is already in the log (a write just finished, or the load read it). */
  install(next: TransactionMetadata): void {
    const previous = this.#transactions.get(next.transactionalId);
    if (previous && previous.producerId !== next.producerId) this.#byProducerId.delete(previous.producerId);
    this.#transactions.set(next.transactionalId, next);
    this.#byProducerId.set(next.producerId, next.transactionalId);
    const delta = Number(isOpen(next.state)) - Number(previous !== undefined && isOpen(previous.state));
    if (delta !== 0) {
      this.#openCount += delta;
      this.observer.openTransactionsChanged(this.#openCount);
    }
  }

  /** Forgets an expired id after writing its tombstone; false when the write failed. */
  async remove(metadata: TransactionMetadata): Promise<boolean> {
    const { transactionalId } = metadata;
    try {
      await this.store.write(this.partitionOf(transactionalId), [{ transactionalId, value: null }], {
        durable: false,
      });
    } catch (error) {
      this.logger.warn({ transactionalId, err: error }, 'writing a transaction tombstone failed');
      return false;
    }
    this.#transactions.delete(transactionalId);
    if (this.#byProducerId.get(metadata.producerId) === transactionalId) {
      this.#byProducerId.delete(metadata.producerId);
    }
    return true;
  }

  /** The produce path's question (transaction-contracts.ts): may this producer append here? */
  membership(producerId: bigint, producerEpoch: number, partition: TopicPartitionRef): TransactionMembership {
    const transactionalId = this.#byProducerId.get(producerId);
    const current = transactionalId === undefined ? undefined : this.#transactions.get(transactionalId);
    if (!current) return 'not-member';
    if (producerEpoch < current.producerEpoch) return 'fenced';
    const member =
      current.state === 'Ongoing' &&
      producerEpoch === current.producerEpoch &&
      current.partitions.has(partitionKey(partition));
    return member ? 'member' : 'not-member';
  }
}

/** A transaction is open from its first added partition until its outcome is recorded. */
function isOpen(state: TransactionState): boolean {
  return state === 'Ongoing' || isCompleting(state);
}
