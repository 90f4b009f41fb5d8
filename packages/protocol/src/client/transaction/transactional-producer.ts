import { ErrorCode } from '../../errors/error-codes';
import { WeirError } from '../../errors/weir-error';
import type { Client } from '../client';
import { findGroupCoordinator, findTransactionCoordinator } from '../group/coordinator';
import { CoordinatorLink } from '../group/coordinator-link';
import type { OffsetToCommit } from '../group/group-offsets';
import type { ProducerRecord, RecordMetadata } from '../message';
import { Producer } from '../producer';
import type { ProducerIdentity } from '../producer-batch';
import type { ProducerOptions } from '../producer-options';
import { TransactionPartitions } from './transaction-partitions';
import {
  addOffsetsToTransaction,
  commitTransactionalOffsets,
  endTransaction,
  initTransactionalId,
  isFencingCode,
} from './transaction-requests';
import { canTransitionTransaction, type TransactionState } from './transaction-state';

/** Settings of a {@link TransactionalProducer}. */
export interface TransactionalProducerOptions extends Omit<ProducerOptions, 'acks' | 'idempotent'> {
  /** Identifies the producer across restarts: a new instance with the same id fences the old one. */
  readonly transactionalId: string;
  /** The coordinator aborts a transaction left open this long. Default 60 s (the broker caps it). */
  readonly transactionTimeoutMs?: number;
}

/**
 * A producer whose sends are grouped into transactions that become visible all at once (commit) or
 * not at all (abort), to read_committed consumers. Together with `sendOffsets` it gives
 * exactly-once consume-process-produce: the consumed offsets commit in the same transaction as
 * the produced records.
 *
 * ```ts
 * const producer = new TransactionalProducer(client, { transactionalId: 'orders-enricher' });
 * await producer.initTransactions();
 * producer.beginTransaction();
 * await producer.send({ topic: 'out', messages: [{ value: 'x' }] });
 * await producer.sendOffsets('enricher', [{ topic: 'in', partition: 0, offset: 42n }]);
 * await producer.commitTransaction();
 * ```
 *
 * A failed send makes the transaction abortable: commit then throws and only `abortTransaction`
 * goes on. INVALID_PRODUCER_EPOCH (or PRODUCER_FENCED) means another instance initialized the
 * same transactional id: this one is fenced for good and can only be closed. Like the Java client,
 * `close` does not abort an open transaction; the next `initTransactions` with the same id (or the
 * coordinator's timeout) does.
 */
export class TransactionalProducer {
  readonly transactionalId: string;
  readonly #client: Client;
  readonly #transactionTimeoutMs: number;
  readonly #coordinator: CoordinatorLink;
  readonly #partitions: TransactionPartitions;
  readonly #producer: Producer;
  #state: TransactionState = 'uninitialized';
  #identity: ProducerIdentity | undefined;
  /** Why the transaction can only abort (or why the producer is fenced). */
  #failure: WeirError | undefined;
  /** A batch failed in this transaction: its sequence has a gap, so the abort bumps the epoch. */
  #needsEpochBump = false;
  /** Sends of the ongoing transaction, settled before it commits or aborts. */
  readonly #sends = new Set<Promise<unknown>>();
  /** Links to the coordinators of the groups given to sendOffsets, kept across transactions. */
  readonly #groupCoordinators = new Map<string, CoordinatorLink>();

  constructor(client: Client, options: TransactionalProducerOptions) {
    if (typeof options.transactionalId !== 'string' || options.transactionalId.length === 0)
      throw new RangeError('transactionalId must be a non-empty string');
    this.transactionalId = options.transactionalId;
    this.#client = client;
    this.#transactionTimeoutMs = options.transactionTimeoutMs ?? 60_000;
    if (!Number.isInteger(this.#transactionTimeoutMs) || this.#transactionTimeoutMs <= 0)
      throw new RangeError(
        `transactionTimeoutMs must be a positive integer, got ${this.#transactionTimeoutMs}`,
      );
    this.#coordinator = new CoordinatorLink(
      client,
      () => findTransactionCoordinator(client, this.transactionalId),
      (address) => client.openConnection(address),
      () => this.#state === 'closed',
    );
    this.#partitions = new TransactionPartitions({
      transactionalId: this.transactionalId,
      coordinator: this.#coordinator,
      identity: () => (this.#state === 'in-transaction' ? this.#identity : undefined),
      onFailed: (error, cause) => this.#onTransactionFailure(error, cause.sequenceGap),
      retryBackoffMs: (attempt) => client.retryPolicy.backoffMs(attempt),
    });
    const { transactionalId: _id, transactionTimeoutMs: _timeout, ...producerOptions } = options;
    this.#producer = new Producer(
      client,
      { ...producerOptions, acks: -1, idempotent: true },
      this.#partitions,
    );
  }

  /** See {@link TransactionState}. */
  get state(): TransactionState {
    return this.#state;
  }

  /**
   * Gets the producer id for the transactional id and a new epoch, which fences any older instance
   * and makes the coordinator abort a transaction such an instance left open. Call once, first.
   */
  async initTransactions(): Promise<void> {
    if (this.#state !== 'uninitialized') throw this.#stateError('initTransactions');
    this.#transition('initializing');
    try {
      this.#identity = await this.#coordinator.withRetries((send) =>
        initTransactionalId(send, this.transactionalId, this.#transactionTimeoutMs),
      );
    } catch (error) {
      this.#transition(isFenced(error) ? 'fatal' : 'uninitialized');
      throw error;
    }
    this.#transition('ready');
  }

  beginTransaction(): void {
    if (this.#state !== 'ready') throw this.#refusal('beginTransaction');
    this.#partitions.reset();
    this.#needsEpochBump = false;
    this.#failure = undefined;
    this.#transition('in-transaction');
  }

  /** Queues records in the ongoing transaction; resolves with their offsets once stored. */
  send(record: ProducerRecord): Promise<RecordMetadata[]> {
    if (this.#state !== 'in-transaction') return Promise.reject(this.#refusal('send'));
    const sent = this.#producer.send(record);
    // Any failed send makes the transaction abortable, not only a failed batch: a send can also
    // fail before its records reach a batch (no metadata for the topic), and committing then
    // would commit the transaction without them.
    const settled = sent.then(
      () => undefined,
      (error: unknown) => this.#onTransactionFailure(error, false),
    );
    this.#sends.add(settled);
    void settled.then(() => this.#sends.delete(settled));
    return sent;
  }

  /**
   * Commits consumed positions as part of the transaction: `offsets` are the next offsets to read
   * (last processed + 1), applied to `groupId` only if the transaction commits.
   */
  async sendOffsets(groupId: string, offsets: readonly OffsetToCommit[]): Promise<void> {
    if (this.#state !== 'in-transaction') throw this.#refusal('sendOffsets');
    const identity = this.#identity!;
    try {
      await this.#coordinator.withRetries((send) =>
        addOffsetsToTransaction(send, this.transactionalId, identity, groupId),
      );
      this.#partitions.markTouched();
      if (offsets.length === 0) return;
      await this.#groupCoordinator(groupId).withRetries((send) =>
        commitTransactionalOffsets(send, this.transactionalId, identity, groupId, offsets),
      );
    } catch (error) {
      this.#onTransactionFailure(error, false);
      throw error;
    }
  }

  /** Waits for every send of the transaction, then commits it. Throws (abortable) if a send failed. */
  async commitTransaction(): Promise<void> {
    if (this.#state !== 'in-transaction') throw this.#refusal('commitTransaction');
    await this.#settleSends();
    if (this.#state !== 'in-transaction') throw this.#refusal('commitTransaction');
    this.#transition('committing');
    try {
      await this.#endTransaction(true);
    } catch (error) {
      this.#onTransactionFailure(error, false);
      throw error;
    }
    this.#transition('ready');
  }

  /**
   * Aborts the ongoing (or failed) transaction: its records stay invisible to read_committed
   * readers. After a failed send the epoch is bumped too, so later transactions start clean.
   */
  async abortTransaction(): Promise<void> {
    if (this.#state !== 'in-transaction' && this.#state !== 'abortable')
      throw this.#refusal('abortTransaction');
    this.#transition('aborting');
    const abortError =
      this.#failure ?? new WeirError(ErrorCode.INVALID_TXN_STATE, { detail: 'the transaction was aborted.' });
    this.#partitions.failUnsent(abortError);
    await this.#settleSends();
    try {
      await this.#endTransaction(false);
      if (this.#needsEpochBump) {
        this.#identity = await this.#coordinator.withRetries((send) =>
          initTransactionalId(send, this.transactionalId, this.#transactionTimeoutMs),
        );
      }
    } catch (error) {
      this.#onTransactionFailure(error, false);
      // The abort can be tried again, unless the producer was fenced meanwhile.
      if ((this.#state as TransactionState) === 'aborting') this.#transition('abortable');
      throw error;
    }
    this.#failure = undefined;
    this.#transition('ready');
  }

  /** Flushes, then stops. Idempotent; an open transaction is left to the coordinator (see above). */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    try {
      await this.#producer.close();
    } finally {
      this.#coordinator.drop();
      for (const link of this.#groupCoordinators.values()) link.drop();
      this.#groupCoordinators.clear();
      this.#transition('closed');
    }
  }

  /**
   * The link to a group's coordinator. A consume-process-produce loop sends offsets for the same
   * group in every transaction, so the link (and its connection) is kept rather than looked up
   * and opened again each time.
   */
  #groupCoordinator(groupId: string): CoordinatorLink {
    let link = this.#groupCoordinators.get(groupId);
    if (link === undefined) {
      link = new CoordinatorLink(
        this.#client,
        () => findGroupCoordinator(this.#client, groupId),
        (address) => this.#client.openConnection(address),
        () => this.#state === 'closed',
      );
      this.#groupCoordinators.set(groupId, link);
    }
    return link;
  }

  /** EndTxn, unless the transaction never reached the coordinator (nothing was added). */
  async #endTransaction(commit: boolean): Promise<void> {
    await this.#partitions.settled();
    if (!this.#partitions.touchedCoordinator()) return;
    const identity = this.#identity!;
    await this.#coordinator.withRetries((send) =>
      endTransaction(send, this.transactionalId, identity, commit),
    );
  }

  async #settleSends(): Promise<void> {
    await this.#producer.flush();
    await Promise.all([...this.#sends]);
  }

  /**
   * A send, a partition add, an offsets commit or EndTxn failed: the transaction can only abort
   * (and the abort bumps the epoch when a lost batch left a sequence gap), or, when another
   * instance fenced this one, nothing but close is left.
   */
  #onTransactionFailure(error: unknown, sequenceGap: boolean): void {
    const failure =
      error instanceof WeirError
        ? error
        : new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR, { detail: String(error), cause: error });
    if (sequenceGap) this.#needsEpochBump = true;
    if (isFencingCode(failure.code)) {
      this.#failure = failure;
      if (this.#state !== 'fatal' && this.#state !== 'closed') this.#transition('fatal');
      return;
    }
    this.#failure ??= failure;
    // During an abort, batches failing in flight are expected; the abort goes on.
    if (this.#state === 'in-transaction' || this.#state === 'committing') this.#transition('abortable');
  }

  #transition(to: TransactionState): void {
    if (!canTransitionTransaction(this.#state, to))
      throw new Error(`transactional producer: ${this.#state} → ${to} is not a valid transition`);
    this.#state = to;
  }

  /**
   * Why `operation` is refused: once the transaction failed (abortable) or the producer was fenced
   * (fatal), the error that did it, so a fenced producer's commit reports INVALID_PRODUCER_EPOCH
   * rather than a state error that hides the cause.
   */
  #refusal(operation: string): WeirError {
    if ((this.#state === 'abortable' || this.#state === 'fatal') && this.#failure !== undefined)
      return this.#failure;
    return this.#stateError(operation);
  }

  #stateError(operation: string): WeirError {
    return new WeirError(ErrorCode.INVALID_TXN_STATE, {
      detail: `${operation} is not allowed while the producer is ${this.#state}.`,
    });
  }
}

function isFenced(error: unknown): boolean {
  return error instanceof WeirError && isFencingCode(error.code);
}
