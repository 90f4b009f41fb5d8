import { WeirError } from '../../errors/weir-error';
import type { CoordinatorLink } from '../group/coordinator-link';
import type { ProducerIdentity } from '../producer-batch';
import type { ProducerControls, ProducerTransactionGate } from './transaction-gate';
import { addPartitionsToTransaction } from './transaction-requests';

export interface TransactionPartitionsOptions {
  readonly transactionalId: string;
  readonly coordinator: CoordinatorLink;
  /** The identity of the ongoing transaction; undefined when none may send. */
  readonly identity: () => ProducerIdentity | undefined;
  /** Adding partitions or storing a batch failed; `sequenceGap` when a sent batch was lost. */
  readonly onFailed: (error: unknown, cause: { sequenceGap: boolean }) => void;
  readonly retryBackoffMs: (attempt: number) => number;
}

/**
 * The partitions of the ongoing transaction, and the gate its producer sends through: a batch for
 * a partition goes out only once AddPartitionsToTxn has added the partition. Partitions asked for
 * in one turn of the event loop are added in one request, as the Java client batches them.
 */
export class TransactionPartitions implements ProducerTransactionGate {
  readonly transactionalId: string;
  readonly #options: TransactionPartitionsOptions;
  #controls: ProducerControls | undefined;
  readonly #added = new Set<string>();
  /** Asked for and not added yet, by topic. */
  #pending = new Map<string, Set<number>>();
  #adding: Promise<void> | undefined;
  /** Whether the coordinator knows of this transaction (a partition or a group was added). */
  #touched = false;

  constructor(options: TransactionPartitionsOptions) {
    this.transactionalId = options.transactionalId;
    this.#options = options;
  }

  bind(controls: ProducerControls): void {
    if (this.#controls !== undefined) throw new Error('a transaction gate serves one producer');
    this.#controls = controls;
  }

  identity(): ProducerIdentity | undefined {
    return this.#options.identity();
  }

  admit(topic: string, partition: number): boolean {
    const key = `${topic}\u0000${partition}`;
    if (this.#added.has(key)) return true;
    if (this.identity() === undefined) return false;
    let partitions = this.#pending.get(topic);
    if (partitions === undefined) {
      partitions = new Set();
      this.#pending.set(topic, partitions);
    }
    partitions.add(partition);
    this.#scheduleAdd();
    return false;
  }

  onBatchFailed(error: unknown): void {
    this.#options.onFailed(error, { sequenceGap: true });
  }

  /** Fails the batches that were never sent (the transaction is being aborted). */
  failUnsent(error: unknown): void {
    this.#controls?.failUnsent(error);
  }

  /** A group's offsets joined the transaction. */
  markTouched(): void {
    this.#touched = true;
  }

  /** Whether EndTxn is needed: false when the transaction never reached the coordinator. */
  touchedCoordinator(): boolean {
    return this.#touched;
  }

  /** Resolves once no AddPartitionsToTxn is under way. */
  async settled(): Promise<void> {
    while (this.#adding !== undefined) await this.#adding;
  }

  /** Forgets the previous transaction's partitions. */
  reset(): void {
    this.#added.clear();
    this.#pending.clear();
    this.#touched = false;
  }

  #scheduleAdd(): void {
    if (this.#adding !== undefined) return;
    this.#adding = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.#addPending())
      .finally(() => {
        this.#adding = undefined;
        if (this.#pending.size > 0 && this.identity() !== undefined) this.#scheduleAdd();
        this.#controls?.wake();
      });
  }

  async #addPending(): Promise<void> {
    const identity = this.identity();
    if (identity === undefined || this.#pending.size === 0) return;
    const batch = new Map([...this.#pending].map(([topic, set]) => [topic, [...set].sort((a, b) => a - b)]));
    this.#pending = new Map();
    try {
      await this.#options.coordinator.withRetries((send) =>
        addPartitionsToTransaction(send, this.transactionalId, identity, batch),
      );
    } catch (error) {
      this.#options.onFailed(error, { sequenceGap: false });
      this.#controls?.failUnsent(error instanceof WeirError ? error : new WeirError(-1, { cause: error }));
      return;
    }
    this.#touched = true;
    for (const [topic, partitions] of batch) {
      for (const partition of partitions) this.#added.add(`${topic}\u0000${partition}`);
    }
  }
}
