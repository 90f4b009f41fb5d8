import {
  type ApiSchema,
  ErrorCode,
  Fetch,
  iterateBatches,
  OffsetForLeaderEpoch,
  type RequestOf,
  type ResponseOf,
  WeirError,
} from '@weir/protocol';
import type { ReplicaLogger } from './metadata-applier';
import type { Partition } from './partition';
import type { ReplicationThrottle } from './replication-throttle';
import { divergenceCut } from './truncation-point';

/** Calls to another broker's internal listener (the inter-broker client). */
export interface LeaderClient {
  send<A extends ApiSchema>(brokerId: number, api: A, body: RequestOf<A>): Promise<ResponseOf<A>>;
}

export interface ReplicaFetchersDeps {
  localBrokerId: number;
  client: LeaderClient;
  logger: ReplicaLogger;
  /** replica.fetch.wait.max.ms: how long a follower's fetch may wait at the leader for new records. */
  fetchWaitMaxMs: number;
  /** replica.fetch.max.bytes: per partition, per fetch. */
  partitionMaxBytes: number;
  /** replica.fetch.response.max.bytes: per fetch. */
  responseMaxBytes: number;
  delay(ms: number): Promise<void>;
  /**
   * follower.replication.throttled.rate over the partitions `isThrottled` names (a reassignment's
   * adding replicas here); none when absent.
   */
  throttle?: { quota: ReplicationThrottle; isThrottled(topic: string, partition: number): boolean };
}

/** The longest a throttled partition waits before the throttle is asked again. */
const THROTTLE_RECHECK_MS = 250;

/** After a failed call to a leader, the next waits this long, doubling up to the maximum. */
const BACKOFF = { initialMs: 50, maxMs: 1000 } as const;

/** One partition this broker follows: at which leader epoch, and what it is doing now. */
interface FollowedPartition {
  partition: Partition;
  leaderEpoch: number;
  /** A follower first finds where its log and the leader's agree, then fetches. */
  phase: 'truncating' | 'fetching';
  /** Set when the leader answered with an error that a metadata change will resolve. */
  retryAtMs: number;
}

/**
 * The followers' side of replication (docs/architecture.md §6.5): one fetch loop per leader
 * broker, for every partition this broker follows there. A partition starts by finding where its
 * log diverges from the leader's (OffsetForLeaderEpoch, KIP-101/279: never by cutting to its high
 * watermark) and cutting there, then fetches with Kafka's Fetch as replica `localBrokerId`, long
 * polling, and appends the leader's batches byte for byte, fdatasync'd before the next fetch
 * reports them. Errors that a metadata change resolves (another leader, another epoch) hold the
 * partition until its assignment changes it; a leader that cannot be reached is retried with
 * backoff.
 */
export class ReplicaFetchers {
  readonly #fetchers = new Map<number, LeaderFetcher>();
  #stopped = false;

  constructor(private readonly deps: ReplicaFetchersDeps) {}

  /** Makes the partition follow its leader as it is now, or stop following when it has none. */
  update(partition: Partition): void {
    if (this.#stopped) return;
    const followed = partition.followedLeader;
    for (const [leaderId, fetcher] of this.#fetchers) {
      if (followed?.leaderId !== leaderId) fetcher.remove(partition);
    }
    if (followed === undefined) return;
    let fetcher = this.#fetchers.get(followed.leaderId);
    if (fetcher === undefined) {
      fetcher = new LeaderFetcher(followed.leaderId, this.deps, () => this.#stopped);
      this.#fetchers.set(followed.leaderId, fetcher);
    }
    fetcher.follow(partition, followed.leaderEpoch);
  }

  /** Stops following a partition that left this broker. */
  remove(partition: Partition): void {
    for (const fetcher of this.#fetchers.values()) fetcher.remove(partition);
  }

  /** How many partitions each leader is followed for (tests, metrics). */
  followedCounts(): Map<number, number> {
    return new Map([...this.#fetchers].map(([leaderId, fetcher]) => [leaderId, fetcher.size]));
  }

  /** Stops every fetch loop and waits for the rounds in flight (their appends) to finish. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all([...this.#fetchers.values()].map((fetcher) => fetcher.stopped()));
  }
}

/** The fetch loop for the partitions led by one broker. */
class LeaderFetcher {
  readonly #partitions = new Map<string, FollowedPartition>();
  #running: Promise<void> | undefined;
  #failures = 0;

  constructor(
    private readonly leaderId: number,
    private readonly deps: ReplicaFetchersDeps,
    private readonly isStopped: () => boolean,
  ) {}

  get size(): number {
    return this.#partitions.size;
  }

  follow(partition: Partition, leaderEpoch: number): void {
    const current = this.#partitions.get(partition.key);
    if (current !== undefined && current.partition === partition && current.leaderEpoch === leaderEpoch)
      return;
    this.#partitions.set(partition.key, { partition, leaderEpoch, phase: 'truncating', retryAtMs: 0 });
    this.#running ??= this.#loop().finally(() => {
      this.#running = undefined;
      // A partition may have arrived as the loop ended.
      if (this.#partitions.size > 0 && !this.isStopped()) this.#running = this.#loop();
    });
  }

  remove(partition: Partition): void {
    const current = this.#partitions.get(partition.key);
    if (current?.partition === partition) this.#partitions.delete(partition.key);
  }

  async stopped(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
  }

  async #loop(): Promise<void> {
    while (this.#partitions.size > 0 && !this.isStopped()) {
      try {
        const progressed = await this.#round();
        this.#failures = 0;
        if (!progressed) await this.deps.delay(BACKOFF.initialMs);
      } catch (error) {
        this.#failures += 1;
        const backoffMs = Math.min(BACKOFF.maxMs, BACKOFF.initialMs * 2 ** (this.#failures - 1));
        if (this.#failures === 1 || this.#failures % 20 === 0) {
          this.deps.logger.warn(
            { leaderId: this.leaderId, err: error, failures: this.#failures, backoffMs },
            'fetching from a partition leader failed',
          );
        }
        await this.deps.delay(backoffMs);
      }
    }
  }

  /** One round: truncations first, then one fetch. Returns whether anything could be asked. */
  async #round(): Promise<boolean> {
    const nowMs = performance.now();
    const ready = [...this.#partitions.values()].filter((followed) => followed.retryAtMs <= nowMs);
    const truncating = ready.filter((followed) => followed.phase === 'truncating');
    if (truncating.length > 0) await this.#truncate(truncating);
    const fetching = this.#withinThrottle(
      ready.filter((followed) => followed.phase === 'fetching' && this.#isCurrent(followed)),
      nowMs,
    );
    if (fetching.length > 0) await this.#fetch(fetching);
    return truncating.length > 0 || fetching.length > 0;
  }

  /** The partitions that may fetch now: throttled ones wait while the throttle's bucket is empty. */
  #withinThrottle(partitions: FollowedPartition[], nowMs: number): FollowedPartition[] {
    const throttle = this.deps.throttle;
    if (throttle === undefined) return partitions;
    const waitMs = throttle.quota.waitMs();
    if (waitMs === 0) return partitions;
    return partitions.filter((followed) => {
      if (!this.#throttled(followed)) return true;
      // Checked again soon rather than after the whole wait, so a rate raised or lifted meanwhile
      // applies within a fraction of a second.
      followed.retryAtMs = nowMs + Math.min(waitMs, THROTTLE_RECHECK_MS);
      return false;
    });
  }

  #throttled(followed: FollowedPartition): boolean {
    return this.deps.throttle?.isThrottled(followed.partition.topic, followed.partition.partition) === true;
  }

  #isCurrent(followed: FollowedPartition): boolean {
    return this.#partitions.get(followed.partition.key) === followed;
  }

  /**
   * Asks the leader where each partition's newest epoch here ends in its log and cuts there
   * (truncation-point.ts), asking again about an older epoch when the leader does not have this
   * one, until the two logs agree.
   */
  async #truncate(partitions: FollowedPartition[]): Promise<void> {
    const asked = new Map<FollowedPartition, number>();
    for (const followed of partitions) {
      const state = this.#logState(followed);
      if (state === undefined) continue;
      // An empty log, or one without epochs, has nothing that could diverge.
      if (state.latestEpoch < 0) {
        followed.phase = 'fetching';
        continue;
      }
      asked.set(followed, state.latestEpoch);
    }
    while (asked.size > 0) {
      const entries = [...asked];
      const response = await this.deps.client.send(this.leaderId, OffsetForLeaderEpoch, {
        replicaId: this.deps.localBrokerId,
        topics: groupByTopic(entries.map(([followed, epoch]) => ({ followed, epoch }))).map(
          ([topic, items]) => ({
            topic,
            partitions: items.map(({ followed, epoch }) => ({
              partition: followed.partition.partition,
              currentLeaderEpoch: followed.leaderEpoch,
              leaderEpoch: epoch,
            })),
          }),
        ),
      });
      const answers = new Map<string, (typeof response.topics)[number]['partitions'][number]>();
      for (const topic of response.topics) {
        for (const partition of topic.partitions)
          answers.set(`${topic.topic}\u0000${partition.partition}`, partition);
      }
      asked.clear();
      for (const [followed, epoch] of entries) {
        const answer = answers.get(followed.partition.key);
        if (!this.#isCurrent(followed)) continue;
        if (answer === undefined || answer.errorCode !== ErrorCode.NONE) {
          this.#holdUntilMetadata(followed, answer?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR);
          continue;
        }
        const state = this.#logState(followed);
        if (state === undefined) continue;
        const cut = divergenceCut(
          { epoch, leaderEpoch: answer.leaderEpoch, leaderEndOffset: Number(answer.endOffset) },
          state,
        );
        if (cut.kind === 'ask-again') {
          asked.set(followed, cut.epoch);
          continue;
        }
        if (cut.offset < state.logEndOffset) {
          this.deps.logger.info(
            {
              topic: followed.partition.topic,
              partition: followed.partition.partition,
              leaderId: this.leaderId,
              leaderEpoch: followed.leaderEpoch,
              from: state.logEndOffset,
              to: cut.offset,
            },
            'follower truncating a log tail the leader does not have',
          );
          try {
            await followed.partition.follower.truncate(followed.leaderEpoch, cut.offset);
          } catch (error) {
            this.#partitionFailed(followed, error);
            continue;
          }
        }
        followed.phase = 'fetching';
      }
    }
  }

  async #fetch(partitions: FollowedPartition[]): Promise<void> {
    const positions = new Map<FollowedPartition, number>();
    for (const followed of partitions) {
      const state = this.#logState(followed);
      if (state !== undefined) positions.set(followed, state.logEndOffset);
    }
    if (positions.size === 0) return;
    const throttled = new Set([...positions.keys()].filter((followed) => this.#throttled(followed)));
    // A throttled partition asks for no more than the bucket holds (at least one byte, so the
    // leader still sends its next batch whole, as Kafka's first-batch rule does).
    const allowance = throttled.size === 0 ? undefined : this.deps.throttle?.quota.allowanceBytes();
    const throttledMaxBytes =
      allowance === undefined
        ? this.deps.partitionMaxBytes
        : Math.max(1, Math.min(this.deps.partitionMaxBytes, Math.floor(allowance / throttled.size)));
    const response = await this.deps.client.send(this.leaderId, Fetch, {
      replicaId: this.deps.localBrokerId,
      maxWaitMs: this.deps.fetchWaitMaxMs,
      minBytes: 1,
      maxBytes: this.deps.responseMaxBytes,
      isolationLevel: 0,
      sessionId: 0,
      sessionEpoch: -1,
      topics: groupByTopic([...positions].map(([followed, fetchOffset]) => ({ followed, fetchOffset }))).map(
        ([topic, items]) => ({
          topic,
          partitions: items.map(({ followed, fetchOffset }) => ({
            partition: followed.partition.partition,
            currentLeaderEpoch: followed.leaderEpoch,
            fetchOffset: BigInt(fetchOffset),
            logStartOffset: -1n,
            partitionMaxBytes: throttled.has(followed) ? throttledMaxBytes : this.deps.partitionMaxBytes,
          })),
        }),
      ),
      forgottenTopicsData: [],
      rackId: '',
    });
    const byKey = new Map<string, FollowedPartition>();
    for (const followed of positions.keys()) byKey.set(followed.partition.key, followed);
    const appends: Promise<void>[] = [];
    for (const topic of response.responses) {
      for (const answer of topic.partitions) {
        const followed = byKey.get(`${topic.topic}\u0000${answer.partitionIndex}`);
        if (followed === undefined || !this.#isCurrent(followed)) continue;
        if (throttled.has(followed)) this.deps.throttle?.quota.record(answer.records?.length ?? 0);
        appends.push(this.#applyFetched(followed, positions.get(followed)!, answer));
      }
    }
    await Promise.all(appends);
  }

  async #applyFetched(
    followed: FollowedPartition,
    fetchOffset: number,
    answer: ResponseOf<typeof Fetch>['responses'][number]['partitions'][number],
  ): Promise<void> {
    if (answer.errorCode === ErrorCode.OFFSET_OUT_OF_RANGE) {
      const leaderLogStart = Number(answer.logStartOffset);
      if (leaderLogStart > fetchOffset) {
        // What this log lacks is gone from the leader too: start over where the leader's begins.
        this.deps.logger.info(
          {
            topic: followed.partition.topic,
            partition: followed.partition.partition,
            from: fetchOffset,
            to: leaderLogStart,
          },
          "follower log ends below the leader's log start: starting over there",
        );
        try {
          await followed.partition.follower.restartAt(followed.leaderEpoch, leaderLogStart);
        } catch (error) {
          this.#partitionFailed(followed, error);
        }
        return;
      }
      // The logs disagree again (the leader changed its mind): find where once more.
      followed.phase = 'truncating';
      followed.retryAtMs = performance.now() + BACKOFF.initialMs;
      return;
    }
    if (answer.errorCode !== ErrorCode.NONE) {
      this.#holdUntilMetadata(followed, answer.errorCode);
      return;
    }
    try {
      const batches: Buffer[] = [];
      for (const item of iterateBatches(answer.records ?? Buffer.alloc(0))) {
        // A partial batch at the end is the rest of one that did not fit; the next fetch gets it.
        if (item.kind === 'batch')
          batches.push(Buffer.from(item.bytes.buffer, item.bytes.byteOffset, item.bytes.length));
        else if (item.kind === 'invalid') throw item.error;
      }
      const first = batches[0];
      const firstBase = first === undefined ? fetchOffset : Number(first.readBigInt64BE(0));
      const state = followed.partition.follower.logState(followed.leaderEpoch);
      if (firstBase < fetchOffset && state.logStartOffset === state.logEndOffset) {
        // The leader's log start fell inside a batch: an empty log begins at that batch instead.
        await followed.partition.follower.restartAt(followed.leaderEpoch, firstBase);
      } else if (firstBase < fetchOffset) {
        // Above the fetch offset is a hole a compacted leader's cleaner left, which the follower
        // reproduces; a batch that starts below it belongs to another history.
        throw new WeirError(ErrorCode.CORRUPT_MESSAGE, {
          detail: `the leader answered offset ${fetchOffset} with a batch at ${firstBase}`,
        });
      }
      if (batches.length > 0) await followed.partition.follower.append(batches, followed.leaderEpoch);
      await followed.partition.follower.followLeaderOffsets(followed.leaderEpoch, {
        highWatermark: Number(answer.highWatermark),
        logStartOffset: Number(answer.logStartOffset),
      });
    } catch (error) {
      this.#partitionFailed(followed, error);
    }
  }

  #logState(followed: FollowedPartition) {
    try {
      return followed.partition.follower.logState(followed.leaderEpoch);
    } catch {
      // No longer followed at this epoch: the assignment that says so is being applied.
      this.#partitions.delete(followed.partition.key);
      return undefined;
    }
  }

  /** The leader does not (yet) agree that it leads at this epoch; wait for the metadata to move. */
  #holdUntilMetadata(followed: FollowedPartition, errorCode: number): void {
    followed.retryAtMs = performance.now() + 200;
    if (errorCode === ErrorCode.UNKNOWN_LEADER_EPOCH || errorCode === ErrorCode.NOT_LEADER_OR_FOLLOWER)
      return;
    this.deps.logger.warn(
      {
        topic: followed.partition.topic,
        partition: followed.partition.partition,
        leaderId: this.leaderId,
        errorCode,
      },
      'the leader refused a follower request',
    );
  }

  #partitionFailed(followed: FollowedPartition, error: unknown): void {
    if (error instanceof WeirError && error.code === ErrorCode.NOT_LEADER_OR_FOLLOWER) {
      this.#partitions.delete(followed.partition.key);
      return;
    }
    followed.phase = 'truncating';
    followed.retryAtMs = performance.now() + BACKOFF.maxMs;
    this.deps.logger.warn(
      { topic: followed.partition.topic, partition: followed.partition.partition, err: error },
      'a follower could not apply what the leader sent',
    );
  }
}

function groupByTopic<T extends { followed: FollowedPartition }>(items: readonly T[]): [string, T[]][] {
  const byTopic = new Map<string, T[]>();
  for (const item of items) {
    const list = byTopic.get(item.followed.partition.topic) ?? [];
    list.push(item);
    byTopic.set(item.followed.partition.topic, list);
  }
  return [...byTopic];
}
