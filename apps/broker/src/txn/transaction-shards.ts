import { ErrorCode } from '@weir/protocol';
import { CoordinatorShards } from '../coordination/coordinator-shards';
import { partitionForKey } from '../coordination/partition-for-key';
import type { TransactionCoordinatorDeps } from './coordinator-types';
import type {
  TransactionMembership,
  TransactionMembershipCheck,
  TransactionMembershipQuery,
} from './transaction-contracts';
import { TRANSACTION_STATE_TOPIC } from './transaction-log';
import type { TransactionMetadata } from './transaction-metadata';
import { TransactionShard, transactionShardLifecycle } from './transaction-shard';
import { TransactionTimers } from './transaction-timers';

/** Where a request for a transactional id goes: its shard, or the error to answer. */
export type TransactionRoute = { shard: TransactionShard } | { shard: undefined; errorCode: number };

/**
 * The `__transaction_state` partitions this broker coordinates (docs/architecture.md §5): one
 * {@link TransactionShard} per partition it leads, gained with {@link becomeLeader} and lost with
 * {@link resign}, the routing of an id to its shard, the timers over the active shards, and the
 * completion of transactions a shard found prepared when it loaded.
 */
export class TransactionShards implements TransactionMembershipCheck {
  readonly #deps: TransactionCoordinatorDeps;
  readonly #shards: CoordinatorShards<TransactionShard, Map<string, TransactionMetadata | null>>;
  readonly #timers: TransactionTimers;
  /** First completion attempts of the shards loaded so far, for {@link whenRecovered}. */
  readonly #recoveries = new Set<Promise<unknown>>();
  #stopped = false;
  #openCount = 0;
  /**
   * Answers for every id while `__transaction_state` does not exist: no id has state anywhere
   * then, so each is unknown (and the first InitProducerId creates the topic first).
   */
  readonly #beforeTopic: TransactionShard;

  constructor(deps: TransactionCoordinatorDeps) {
    this.#deps = deps;
    this.#shards = new CoordinatorShards(
      TRANSACTION_STATE_TOPIC,
      transactionShardLifecycle({
        create: (partition, leaderEpoch) => this.#newShard(partition, leaderEpoch),
        source: () => deps.source,
        onReplayed: (shard, report) =>
          deps.logger.info(
            { partition: shard.partition, leaderEpoch: shard.leaderEpoch, ...report },
            '__transaction_state partition replayed',
          ),
        store: () => deps.store,
        onUpgraded: (shard, upgrade) =>
          deps.logger.info(
            { partition: shard.partition, leaderEpoch: shard.leaderEpoch, ...upgrade },
            "__transaction_state partition's records rewritten in Kafka's layout",
          ),
        onInstalled: (shard) => {
          if (shard.finisher.pendingRecovery.size > 0) void this.#completePrepared(shard);
        },
        onDropped: (shard) => {
          this.#openCountChanged(-shard.table.openCount);
        },
      }),
      deps.logger,
    );
    this.#timers = new TransactionTimers({
      activeShards: () => this.#shards.active(),
      scheduler: deps.scheduler,
      logger: deps.logger,
      idExpirationMs: deps.config.idExpirationMs,
      checkIntervalMs: deps.config.abortTimedOutCheckIntervalMs,
    });
    this.#beforeTopic = this.#newShard(-1, -1);
    this.#beforeTopic.transitionTo('active');
  }

  #newShard(partition: number, leaderEpoch: number): TransactionShard {
    const deps = this.#deps;
    return new TransactionShard(partition, leaderEpoch, {
      store: deps.store,
      markers: deps.markers,
      offsets: deps.offsets,
      scheduler: deps.scheduler,
      logger: deps.logger,
      observer: deps.observer,
      completionRetryMs: deps.config.completionRetryMs,
      coordinatorRunning: () => !this.#stopped,
      openCountChanged: (delta) => this.#openCountChanged(delta),
    });
  }

  #openCountChanged(delta: number): void {
    if (delta === 0) return;
    this.#openCount += delta;
    this.#deps.observer.openTransactionsChanged(this.#openCount);
  }

  /**
   * This broker now leads `partition` at `leaderEpoch`: its ids are replayed (requests for them
   * answer COORDINATOR_LOAD_IN_PROGRESS meanwhile) and served once the replay is done; then the
   * transactions it found prepared are completed in the background (their ids answer
   * CONCURRENT_TRANSACTIONS until then). Resolves when the load has finished, loaded or failed.
   */
  becomeLeader(partition: number, leaderEpoch: number): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    this.#timers.start();
    return this.#shards.becomeLeader(partition, leaderEpoch);
  }

  resign(partition: number): void {
    this.#shards.resign(partition);
  }

  /** Resolves once no shard is loading. */
  whenLoaded(): Promise<void> {
    return this.#shards.whenLoaded();
  }

  /** Resolves once every shard loaded so far made its first attempt at its prepared transactions. */
  async whenRecovered(): Promise<void> {
    await this.whenLoaded();
    while (this.#recoveries.size > 0) await Promise.allSettled([...this.#recoveries]);
  }

  #completePrepared(shard: TransactionShard): Promise<{ completed: number; pending: number }> {
    const recovery = shard.completePrepared();
    this.#recoveries.add(recovery);
    const forget = () => this.#recoveries.delete(recovery);
    recovery.then(forget, (error: unknown) => {
      forget();
      this.#deps.logger.warn(
        { partition: shard.partition, err: error },
        'completing the prepared transactions of a __transaction_state partition failed',
      );
    });
    return recovery;
  }

  /**
   * Creates `__transaction_state` when no broker has created it yet (the first InitProducerId on
   * a broker no FindCoordinator reached first), then waits for the shards this broker gains with
   * it. NONE once ids can be routed; COORDINATOR_NOT_AVAILABLE when the topic could not be created.
   */
  async ensureTopic(): Promise<number> {
    if (this.#stopped || this.#deps.store.partitionCount > 0) return ErrorCode.NONE;
    try {
      await this.#deps.store.ensureCreated();
    } catch (error) {
      this.#deps.logger.warn({ err: error }, 'creating __transaction_state failed');
      return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    }
    await this.whenLoaded();
    return ErrorCode.NONE;
  }

  /** Whether `__transaction_state` does not exist yet, so no id has state anywhere. */
  get awaitsTopic(): boolean {
    return this.#deps.store.partitionCount === 0;
  }

  /** The shard of an id when it is served here; otherwise the error to answer. */
  route(transactionalId: string): TransactionRoute {
    if (this.#stopped) return { shard: undefined, errorCode: ErrorCode.NOT_COORDINATOR };
    const partitionCount = this.#deps.store.partitionCount;
    if (partitionCount === 0) return { shard: this.#beforeTopic };
    const partition = partitionForKey(transactionalId, partitionCount);
    const errorCode = this.#shards.gate(partition);
    const shard = this.#shards.get(partition);
    return errorCode === ErrorCode.NONE && shard ? { shard } : { shard: undefined, errorCode };
  }

  /** The shards whose ids are served now. */
  active(): TransactionShard[] {
    return this.#shards.active();
  }

  /** Whether every shard this broker leads is loaded (ListTransactions says when it is not). */
  get loaded(): boolean {
    return this.#shards.loadState().loaded;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /**
   * The produce path's question (transaction-contracts.ts). With a transactional id, its shard
   * answers ('unavailable' when that shard is not served here). Without one, the producer id is
   * looked up in the loaded shards; a producer found nowhere is 'not-member' unless a shard that
   * could hold it is still loading or failed.
   */
  async membership(query: TransactionMembershipQuery): Promise<TransactionMembership> {
    const { transactionalId, producerId, producerEpoch } = query;
    const partition = { topic: query.topic, partition: query.partition };
    if (transactionalId !== null) {
      const route = this.route(transactionalId);
      if (!route.shard) return 'unavailable';
      return route.shard.table.membershipOf(transactionalId, producerId, producerEpoch, partition);
    }
    let unknownShards = false;
    for (const shard of this.#shards.all()) {
      if (shard.state !== 'active') {
        unknownShards = true;
        continue;
      }
      const verdict = shard.table.membershipOfProducer(producerId, producerEpoch, partition);
      if (verdict !== undefined) return verdict;
    }
    return unknownShards ? 'unavailable' : 'not-member';
  }

  /**
   * For /ready: no shard loading, every transaction a shard found prepared complete (or still
   * waiting for {@link recover}), and no shard failed.
   */
  readiness(): { ok: boolean; detail: string; impact?: 'degraded' } {
    const state = this.#shards.loadState();
    if (!state.loaded) return { ok: false, detail: 'loading' };
    const pending = this.#shards
      .all()
      .reduce((total, shard) => total + shard.finisher.pendingRecovery.size, 0);
    if (pending > 0) {
      return { ok: false, detail: `completing ${pending} transactions prepared before the restart` };
    }
    if (state.failedPartitions.length > 0) {
      const failed = state.failedPartitions.join(', ');
      // The transactional ids of the other partitions are served: the broker is degraded, not down.
      return {
        ok: false,
        impact: 'degraded',
        detail: `__transaction_state partitions failed to load: ${failed}`,
      };
    }
    return { ok: true, detail: 'transactions loaded' };
  }

  /**
   * Stops the timers and retries; requests get NOT_COORDINATOR from now on. The shards stay, so
   * requests already inside a shard finish as they would have.
   */
  shutdown(): void {
    this.#stopped = true;
    this.#timers.stop();
  }
}
