import { ErrorCode } from '@weir/protocol';
import { CoordinatorShard } from '../coordination/coordinator-shard';
import type { ShardLifecycle } from '../coordination/coordinator-shards';
import type { ReplayReport } from '../topics/internal-topic-records';
import { TransactionFinisher, type TransactionFinisherDeps } from './transaction-finisher';
import type { TransactionLogSource, TransactionStore } from './transaction-log';
import { type TransactionMetadata, transition } from './transaction-metadata';
import type { TransactionRecord } from './transaction-records';
import { isCompleting } from './transaction-state';
import { TransactionTable } from './transaction-table';
import type { TimedShard } from './transaction-timers';

/** What a shard hands its finisher as it is, and what the shard itself needs. */
export interface TransactionShardDeps
  extends Omit<TransactionFinisherDeps, 'table' | 'coordinatorEpoch' | 'running'> {
  store: TransactionStore;
  /** False once the coordinator is stopping. */
  coordinatorRunning(): boolean;
  /** Told by how much the number of open transactions of a shard changed. */
  openCountChanged(delta: number): void;
}

/**
 * The transactional ids of one `__transaction_state` partition while this broker leads it: their
 * table, and the finisher that ends their transactions with the shard's leader epoch as the
 * markers' coordinator epoch.
 */
export class TransactionShard extends CoordinatorShard implements TimedShard {
  readonly table: TransactionTable;
  readonly finisher: TransactionFinisher;
  readonly #deps: TransactionShardDeps;

  constructor(partition: number, leaderEpoch: number, deps: TransactionShardDeps) {
    super(partition, leaderEpoch);
    this.#deps = deps;
    this.table = new TransactionTable({
      store: deps.store,
      partition,
      leaderEpoch,
      leads: () => this.leads,
      logger: deps.logger,
      openCountChanged: deps.openCountChanged,
    });
    this.finisher = new TransactionFinisher({
      markers: deps.markers,
      offsets: deps.offsets,
      scheduler: deps.scheduler,
      logger: deps.logger,
      observer: deps.observer,
      completionRetryMs: deps.completionRetryMs,
      table: this.table,
      coordinatorEpoch: leaderEpoch,
      running: () => this.#running,
    });
  }

  get #running(): boolean {
    return this.#deps.coordinatorRunning() && this.leads;
  }

  /**
   * Installs what the replay read. A transaction that was between its decision and its markers
   * (PrepareCommit, PrepareAbort) is marked pending: {@link completePrepared} finishes it.
   */
  installReplayed(loaded: ReadonlyMap<string, TransactionMetadata | null>): void {
    for (const metadata of loaded.values()) {
      if (!metadata) continue;
      // A fence is never written on its own (its abort is), but a record that says so means abort.
      if (metadata.state === 'PrepareEpochFence') transition(metadata, 'PrepareAbort', metadata.lastUpdateMs);
      this.table.install(metadata);
      if (isCompleting(metadata.state)) this.finisher.pendingRecovery.add(metadata.transactionalId);
    }
  }

  /**
   * Completes every transaction found prepared at load, one after the other, one attempt each: a
   * failed attempt is retried in the background by the finisher, and the id stays pending until
   * it succeeds.
   */
  async completePrepared(): Promise<{ completed: number; pending: number }> {
    let completed = 0;
    for (const transactionalId of [...this.finisher.pendingRecovery]) {
      if (!this.#running) break;
      const done = await this.table.queue.run(transactionalId, async () => {
        const current = this.table.get(transactionalId);
        if (current?.state !== 'PrepareCommit' && current?.state !== 'PrepareAbort') return false;
        return (await this.finisher.complete(current)) === ErrorCode.NONE;
      });
      if (done) completed += 1;
    }
    return { completed, pending: this.finisher.pendingRecovery.size };
  }
}

export interface TransactionShardLifecycleDeps {
  create(partition: number, leaderEpoch: number): TransactionShard;
  /** Where shards are replayed from. */
  source(): TransactionLogSource;
  /** Where a shard that replayed outdated records rewrites its state. */
  store(): TransactionStore;
  /** Told what each replay read, for the log. */
  onReplayed(shard: TransactionShard, report: ReplayReport): void;
  /** Told when a replay's outdated records were rewritten in the current layout, for the log. */
  onUpgraded(shard: TransactionShard, upgrade: { outdated: number; rewritten: number }): void;
  /** A shard's replayed state is in place; it is served right after. */
  onInstalled(shard: TransactionShard): void;
  /** A shard lost its partition. */
  onDropped(shard: TransactionShard): void;
}

/** How the transaction coordinator gains and loses a `__transaction_state` partition. */
export function transactionShardLifecycle(
  deps: TransactionShardLifecycleDeps,
): ShardLifecycle<TransactionShard, Map<string, TransactionMetadata | null>> {
  return {
    create: (partition, leaderEpoch) => deps.create(partition, leaderEpoch),
    async replay(shard) {
      // The last record of each id wins; a tombstone (null) means the id expired.
      const loaded = new Map<string, TransactionMetadata | null>();
      const report = await deps
        .source()
        .replay(shard.partition, shard.leaderEpoch, (record) =>
          loaded.set(record.transactionalId, record.value),
        );
      deps.onReplayed(shard, report);
      if (report.outdated > 0) {
        // The one-time upgrade from Weir's earlier layout (transaction-records.ts): every live id
        // is written again, as replayed, in Kafka's layout before the shard serves, so no request
        // can change an id in between and be overwritten by the rewrite. A kill in the middle of
        // it leaves some ids whose latest record is still outdated, and the next start rewrites
        // again; compaction then removes the outdated records the rewrite supersedes.
        const records: TransactionRecord[] = [];
        for (const [transactionalId, value] of loaded) {
          if (value) records.push({ transactionalId, value });
        }
        await deps.store().write(shard.partition, shard.leaderEpoch, records, { durable: true });
        deps.onUpgraded(shard, { outdated: report.outdated, rewritten: records.length });
      }
      return loaded;
    },
    install(shard, loaded) {
      shard.installReplayed(loaded);
      deps.onInstalled(shard);
    },
    drop: (shard) => deps.onDropped(shard),
  };
}
