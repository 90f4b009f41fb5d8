import { ErrorCode } from '@weir/protocol';
import type { CoordinatorLogger } from '../coordination/coordinator-shards';
import { coordinatorWriteError } from '../coordination/coordinator-write-error';
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

export interface TransactionTableDeps {
  store: TransactionStore;
  /** The `__transaction_state` partition this table's ids live on. */
  partition: number;
  /** The leader epoch of the shard, carried by every write. */
  leaderEpoch: number;
  /** False once the shard lost its partition: a write that finishes after that installs nothing. */
  leads(): boolean;
  logger: CoordinatorLogger;
  /** Told by how much the number of open transactions of this table changed. */
  openCountChanged(delta: number): void;
}

/**
 * The transactional ids of one `__transaction_state` partition and the one way to change them: a
 * change is made on a copy, written to the partition with the shard's leader epoch, and installed
 * only once the write is durable and the shard still leads, so memory never runs ahead of the log.
 * Every change of an id runs in {@link queue}.
 */
export class TransactionTable {
  readonly #transactions = new Map<string, TransactionMetadata>();
  /** Producer id → transactional id, for the produce path's membership check. */
  readonly #byProducerId = new Map<bigint, string>();
  readonly queue = new KeyedSerialQueue();
  #openCount = 0;

  constructor(private readonly deps: TransactionTableDeps) {}

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
   * for a record whose loss a crash recovery repairs; see TransactionFinisher.complete). A failed
   * write changes nothing and answers with {@link transactionWriteError}'s code. A write that
   * finishes after the shard lost its partition installs nothing either and answers
   * NOT_COORDINATOR, as Kafka does when the coordinator epoch changed during the append: the new
   * coordinator reads the record from the log.
   */
  async persist(
    next: TransactionMetadata,
    options: { durable: boolean } = { durable: true },
  ): Promise<number> {
    const { store, partition, leaderEpoch, logger } = this.deps;
    try {
      await store.write(
        partition,
        leaderEpoch,
        [{ transactionalId: next.transactionalId, value: next }],
        options,
      );
    } catch (error) {
      logger.warn({ transactionalId: next.transactionalId, err: error }, 'writing transaction state failed');
      return transactionWriteError(error);
    }
    if (!this.deps.leads()) return ErrorCode.NOT_COORDINATOR;
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
      this.deps.openCountChanged(delta);
    }
  }

  /** Forgets an expired id after writing its tombstone; false when the write failed. */
  async remove(metadata: TransactionMetadata): Promise<boolean> {
    const { transactionalId } = metadata;
    const { store, partition, leaderEpoch, logger } = this.deps;
    try {
      await store.write(partition, leaderEpoch, [{ transactionalId, value: null }], { durable: false });
    } catch (error) {
      logger.warn({ transactionalId, err: error }, 'writing a transaction tombstone failed');
      return false;
    }
    if (!this.deps.leads()) return false;
    this.#transactions.delete(transactionalId);
    if (this.#byProducerId.get(metadata.producerId) === transactionalId) {
      this.#byProducerId.delete(metadata.producerId);
    }
    return true;
  }

  /**
   * The produce path's question (transaction-contracts.ts) for an id of this table: may this
   * producer append to the partition?
   */
  membershipOf(
    transactionalId: string,
    producerId: bigint,
    producerEpoch: number,
    partition: TopicPartitionRef,
  ): TransactionMembership {
    const current = this.#transactions.get(transactionalId);
    if (!current || current.producerId !== producerId) return 'not-member';
    if (producerEpoch < current.producerEpoch) return 'fenced';
    const member =
      current.state === 'Ongoing' &&
      producerEpoch === current.producerEpoch &&
      current.partitions.has(partitionKey(partition));
    return member ? 'member' : 'not-member';
  }

  /** The same question by producer id alone; undefined when no id of this table has the producer. */
  membershipOfProducer(
    producerId: bigint,
    producerEpoch: number,
    partition: TopicPartitionRef,
  ): TransactionMembership | undefined {
    const transactionalId = this.#byProducerId.get(producerId);
    if (transactionalId === undefined) return undefined;
    return this.membershipOf(transactionalId, producerId, producerEpoch, partition);
  }
}

/** A transaction is open from its first added partition until its outcome is recorded. */
function isOpen(state: TransactionState): boolean {
  return state === 'Ongoing' || isCompleting(state);
}

/**
 * A failed `__transaction_state` write as the client is told it: Kafka's mapping, with a record
 * too large for the log a broker fault (UNKNOWN_SERVER_ERROR).
 */
export function transactionWriteError(error: unknown): number {
  return coordinatorWriteError(error, {
    codes: [ErrorCode.MESSAGE_TOO_LARGE, ErrorCode.RECORD_LIST_TOO_LARGE],
    answer: ErrorCode.UNKNOWN_SERVER_ERROR,
  });
}
