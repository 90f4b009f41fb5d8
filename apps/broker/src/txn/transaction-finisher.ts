import { ErrorCode } from '@weir/protocol';
import type { CoordinatorLogger } from '../coordination/coordinator-shards';
import type { GroupScheduler } from '../group/group-scheduler';
import { completePrepared, type TransactionOffsetsSink } from './transaction-completion';
import type { TransactionMarkerWriter } from './transaction-contracts';
import {
  copyMetadata,
  MAX_PRODUCER_EPOCH,
  type TransactionMetadata,
  transition,
} from './transaction-metadata';
import type { TransactionObserver, TransactionTable } from './transaction-table';

export interface TransactionFinisherDeps {
  table: TransactionTable;
  markers: TransactionMarkerWriter;
  offsets: TransactionOffsetsSink;
  scheduler: GroupScheduler;
  logger: CoordinatorLogger;
  observer: TransactionObserver;
  /** How long a completion whose markers or offsets failed waits before it is tried again. */
  completionRetryMs: number;
  /** The leader epoch of the shard, written into the markers as Kafka's coordinator epoch. */
  coordinatorEpoch: number;
  /** False once the broker is stopping or the shard lost its partition: retries stop. */
  running(): boolean;
}

/**
 * Ends transactions: commit and abort (EndTxn), the fencing abort (InitProducerId over an open
 * transaction, timeouts, operators), and the completion of transactions found prepared at start.
 * Every method is called with the id's queue held. One finisher serves one shard (its table).
 */
export class TransactionFinisher {
  /** Ids found prepared at start that are not complete yet; /ready waits for them. */
  readonly pendingRecovery = new Set<string>();

  constructor(private readonly deps: TransactionFinisherDeps) {}

  /** Makes the decision durable (PrepareCommit/PrepareAbort), then completes the transaction. */
  async prepareAndComplete(
    current: TransactionMetadata,
    to: 'PrepareCommit' | 'PrepareAbort',
  ): Promise<number> {
    const prepared = copyMetadata(current);
    transition(prepared, to, this.deps.scheduler.nowMs());
    const writeError = await this.deps.table.persist(prepared);
    if (writeError !== ErrorCode.NONE) return writeError;
    return this.complete(prepared);
  }

  /**
   * Bumps the epoch (fencing the producer that holds the transaction open) and aborts with the new
   * epoch, so the markers also fence it on every partition.
   */
  fenceAndAbort(current: TransactionMetadata, reason: string): Promise<number> {
    const next = copyMetadata(current);
    transition(next, 'PrepareEpochFence', this.deps.scheduler.nowMs());
    // At the last epoch there is nothing to bump to; the next InitProducerId moves to a new id.
    if (next.producerEpoch < MAX_PRODUCER_EPOCH) next.producerEpoch += 1;
    this.deps.logger.info(
      { transactionalId: current.transactionalId, producerEpoch: next.producerEpoch, reason },
      'fencing the producer and aborting its transaction',
    );
    return this.prepareAndComplete(next, 'PrepareAbort');
  }

  /**
   * Writes the markers and offsets of an installed prepared transaction, then records it complete.
   * A failure leaves it prepared (requests get CONCURRENT_TRANSACTIONS) and schedules another
   * attempt: the decision is durable, so the transaction must finish eventually.
   */
  async complete(prepared: TransactionMetadata): Promise<number> {
    const { transactionalId } = prepared;
    const result = prepared.state === 'PrepareCommit' ? 'commit' : 'abort';
    let failure: string;
    try {
      const outcome = await completePrepared(prepared, this.deps);
      if (outcome.ok) {
        const completed = copyMetadata(prepared);
        const nowMs = this.deps.scheduler.nowMs();
        transition(completed, result === 'commit' ? 'CompleteCommit' : 'CompleteAbort', nowMs);
        // Written without waiting for its own fdatasync (one of the four a transaction waited on
        // in sequence). Losing it in a crash loses nothing: the log then ends with the durable
        // Prepare record, and recovery completes the transaction again (markers may be written
        // twice, which the partitions accept), exactly as after a crash just before this write.
        // Nothing newer of this id can be durable without it either: every later change of the
        // id is a durable append to the same partition, whose fdatasync covers this record too,
        // and the id's next transaction cannot add partitions (so store data) before that.
        const writeError = await this.deps.table.persist(completed, { durable: false });
        if (writeError === ErrorCode.NONE) {
          this.pendingRecovery.delete(transactionalId);
          this.deps.observer.transactionCompleted(result, Math.max(0, nowMs - prepared.startTimeMs));
          return ErrorCode.NONE;
        }
        failure = `recording the outcome failed with error ${writeError}`;
      } else {
        failure = `${outcome.step}: ${outcome.detail}`;
      }
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    }
    this.deps.logger.warn({ transactionalId, result, failure }, 'completing a transaction failed; retrying');
    this.#scheduleRetry(transactionalId);
    return ErrorCode.CONCURRENT_TRANSACTIONS;
  }

  #scheduleRetry(transactionalId: string): void {
    const { table, scheduler, completionRetryMs } = this.deps;
    scheduler.schedule(completionRetryMs, () => {
      if (!this.deps.running()) return;
      void table.queue.run(transactionalId, async () => {
        const current = table.get(transactionalId);
        if (current?.state === 'PrepareCommit' || current?.state === 'PrepareAbort') {
          await this.complete(current);
        }
      });
    });
  }
}
