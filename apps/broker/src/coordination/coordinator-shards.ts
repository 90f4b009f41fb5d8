import { ErrorCode } from '@weir/protocol';
import type { CoordinatorShard } from './coordinator-shard';

/** The log lines a coordinator writes (pino-shaped, so the broker's logger fits). */
export interface CoordinatorLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * What a coordinator does with its shards; {@link CoordinatorShards} decides when. `L` is what a
 * replay produces before it becomes visible to requests.
 */
export interface ShardLifecycle<S extends CoordinatorShard, L> {
  /** A new, empty shard for a partition this broker now leads at `leaderEpoch`. */
  create(partition: number, leaderEpoch: number): S;
  /** Reads the shard's partition into state that requests do not see yet; throws when the log is unreadable. */
  replay(shard: S): Promise<L>;
  /** Makes the replayed state the shard's. Called only while the shard still leads. */
  install(shard: S, loaded: L): void;
  /** Forgets a shard that lost its partition: parked requests are answered and timers stop. */
  drop(shard: S): void;
}

/** Which of the partitions this broker leads are not served yet. */
export interface ShardLoadState {
  /** True when no shard is loading (also when this broker leads none). */
  loaded: boolean;
  loadingPartitions: number;
  failedPartitions: number[];
}

/**
 * The shards of one coordinator, by internal-topic partition, and the rules for gaining and losing
 * them that both coordinators share (docs/architecture.md §5): a newer leader epoch replaces the
 * shard and loads the partition again, an equal one changes nothing, an older one is ignored; a
 * replay that was overtaken (resign, newer epoch) installs nothing. Replays run one at a time in
 * the order the partitions were gained, as Kafka's coordinators load on one thread, so gaining many
 * partitions at once does not read them all at the same time.
 */
export class CoordinatorShards<S extends CoordinatorShard, L> {
  readonly #shards = new Map<number, S>();
  readonly #loads = new WeakMap<S, Promise<void>>();
  #replayTail: Promise<void> = Promise.resolve();

  constructor(
    private readonly topic: string,
    private readonly lifecycle: ShardLifecycle<S, L>,
    private readonly logger: CoordinatorLogger,
  ) {}

  /** Starts loading `partition` at `leaderEpoch`; resolves once that load finished (or was overtaken). */
  becomeLeader(partition: number, leaderEpoch: number): Promise<void> {
    const current = this.#shards.get(partition);
    if (current && leaderEpoch < current.leaderEpoch) {
      this.logger.warn(
        { topic: this.topic, partition, leaderEpoch, currentLeaderEpoch: current.leaderEpoch },
        'ignored becoming leader with an older leader epoch',
      );
      return Promise.resolve();
    }
    if (current && leaderEpoch === current.leaderEpoch) return this.#loads.get(current) ?? Promise.resolve();
    if (current) this.#drop(current);
    const shard = this.lifecycle.create(partition, leaderEpoch);
    this.#shards.set(partition, shard);
    const load = this.#load(shard);
    this.#loads.set(shard, load);
    return load;
  }

  async #load(shard: S): Promise<void> {
    const previous = this.#replayTail;
    let release!: () => void;
    this.#replayTail = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      await previous;
      // Overtaken while it waited for its turn: nothing to read.
      if (shard.state !== 'loading') return;
      let loaded: L;
      try {
        loaded = await this.lifecycle.replay(shard);
      } catch (error) {
        if (shard.state !== 'loading') return;
        shard.transitionTo('failed');
        this.logger.warn(
          { topic: this.topic, partition: shard.partition, leaderEpoch: shard.leaderEpoch, err: error },
          `loading a ${this.topic} partition failed`,
        );
        return;
      }
      if (shard.state !== 'loading') {
        this.logger.info(
          { topic: this.topic, partition: shard.partition, leaderEpoch: shard.leaderEpoch },
          'dropped a replay that lost its partition while it ran',
        );
        return;
      }
      try {
        this.lifecycle.install(shard, loaded);
      } catch (error) {
        // A coordinator bug: the shard must not be served half installed, nor wait forever.
        shard.transitionTo('failed');
        throw error;
      }
      shard.transitionTo('active');
    } finally {
      release();
    }
  }

  /** Drops the shard of `partition`, if this broker has one. */
  resign(partition: number): void {
    const shard = this.#shards.get(partition);
    if (!shard) return;
    this.#shards.delete(partition);
    this.#drop(shard);
  }

  resignAll(): void {
    for (const partition of [...this.#shards.keys()]) this.resign(partition);
  }

  #drop(shard: S): void {
    shard.transitionTo('resigned');
    this.lifecycle.drop(shard);
  }

  get(partition: number): S | undefined {
    return this.#shards.get(partition);
  }

  /** Every shard this broker leads, in any state but resigned. */
  all(): S[] {
    return [...this.#shards.values()];
  }

  /** The shards whose keys are served now. */
  active(): S[] {
    return this.all().filter((shard) => shard.state === 'active');
  }

  /** NONE when the partition's keys are served here; otherwise the error a request for them gets. */
  gate(partition: number): number {
    const shard = this.#shards.get(partition);
    switch (shard?.state) {
      case undefined:
        return ErrorCode.NOT_COORDINATOR;
      case 'loading':
        return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS;
      case 'failed':
        return ErrorCode.COORDINATOR_NOT_AVAILABLE;
      case 'active':
        return ErrorCode.NONE;
      case 'resigned':
        throw new Error(`a resigned shard of ${this.topic}-${partition} is still registered`);
    }
  }

  loadState(): ShardLoadState {
    const shards = this.all();
    const loadingPartitions = shards.filter((shard) => shard.state === 'loading').length;
    const failedPartitions = shards
      .filter((shard) => shard.state === 'failed')
      .map((shard) => shard.partition)
      .sort((left, right) => left - right);
    return { loaded: loadingPartitions === 0, loadingPartitions, failedPartitions };
  }

  /** Resolves once no shard is loading, including shards gained while it waits. */
  async whenLoaded(): Promise<void> {
    for (;;) {
      const loading = this.all().filter((shard) => shard.state === 'loading');
      if (loading.length === 0) return;
      await Promise.allSettled(loading.map((shard) => this.#loads.get(shard)));
    }
  }

  /** Resolves once the partition's shard is not loading (or this broker has none). */
  async whenPartitionLoaded(partition: number): Promise<void> {
    for (;;) {
      const shard = this.#shards.get(partition);
      if (shard?.state !== 'loading') return;
      await Promise.allSettled([this.#loads.get(shard)]);
    }
  }
}
