import { ErrorCode } from '../errors/error-codes';
import { errorForCode, WeirError } from '../errors/weir-error';
import { Fetch } from '../messages/apis/fetch';
import type { ResponseOf } from '../schema/api';
import type { Client } from './client';
import { ClosedError } from './closed-error';
import { needsMetadataRefresh } from './cluster-metadata';
import {
  type ConsumerOptions,
  type ConsumerSettings,
  consumerSettings,
  nonNegative,
  type PartitionAssignment,
  type PollOptions,
  type StartOffset,
} from './consumer-options';
import {
  asWeirError,
  backOff,
  markSucceeded,
  type PartitionState,
  partitionState,
  restart,
} from './consumer-partition';
import { fetchedPartition, fetchRequest } from './fetch-request';
import { decodeFetchedRecords } from './fetched-records';
import { partitionKey } from './leader-requests';
import { listOffsets } from './list-offsets';
import type { ConsumerRecord } from './message';

// The option types live in ./consumer-options beside their defaults; importers find them here as before.
export type { ConsumerOptions, PartitionAssignment, PollOptions, StartOffset };

/**
 * Reads assigned partitions from given positions (consumer groups come later). `poll` returns the
 * records fetched so far, or waits up to `maxWaitMs` for the first ones; the consumer is also an
 * async iterable of records that ends when it is closed:
 *
 * ```ts
 * consumer.assign([{ topic: 'events', partition: 0, offset: 'earliest' }]);
 * for await (const record of consumer) handle(record);
 * ```
 *
 * Each leader gets one long-polling Fetch at a time, on the client's fetch lane, so a parked Fetch
 * never delays other requests. Fetched batches may start before the position (records below it are
 * dropped) and may end with a partial batch (ignored; the next Fetch starts there). Offsets are
 * `bigint`. Control batches (transaction markers) are never returned; with the default
 * read_committed isolation neither are records of aborted or still open transactions.
 */
export class Consumer {
  readonly #client: Client;
  readonly #settings: ConsumerSettings;
  #partitions = new Map<string, PartitionState>();
  #buffer: ConsumerRecord[] = [];
  readonly #errors: WeirError[] = [];
  readonly #fetching = new Set<number>();
  readonly #refreshing = new Set<string>();
  #wake: () => void = () => {};
  #polling = false;
  #closed = false;

  constructor(client: Client, options: ConsumerOptions = {}) {
    this.#client = client;
    this.#settings = consumerSettings(options);
  }

  /**
   * Reads exactly these partitions from now on, each from its given offset. Replaces the previous
   * assignment; records buffered for partitions no longer assigned are dropped.
   */
  assign(assignments: readonly PartitionAssignment[]): void {
    this.#assertOpen();
    const next = new Map<string, PartitionState>();
    for (const assignment of assignments) {
      if (typeof assignment.topic !== 'string' || assignment.topic.length === 0) {
        throw new RangeError('an assignment needs a topic name');
      }
      if (!Number.isInteger(assignment.partition) || assignment.partition < 0) {
        throw new RangeError(`partition must be a non-negative integer, got ${assignment.partition}`);
      }
      const key = partitionKey(assignment.topic, assignment.partition);
      if (next.has(key))
        throw new RangeError(`${assignment.topic}-${assignment.partition} is assigned twice`);
      next.set(key, partitionState(assignment.topic, assignment.partition, assignment.offset));
    }
    this.#partitions = next;
    this.#buffer = this.#buffer.filter((record) => next.has(partitionKey(record.topic, record.partition)));
    this.#wake();
  }

  /** The assigned partitions. */
  assignment(): { topic: string; partition: number }[] {
    return [...this.#partitions.values()].map(({ topic, partition }) => ({ topic, partition }));
  }

  /**
   * Moves an assigned partition to a new start offset. Records already fetched for it are dropped,
   * and a partition stopped by an error reads again.
   */
  seek(topic: string, partition: number, offset: StartOffset): void {
    this.#assertOpen();
    const state = this.#partitions.get(partitionKey(topic, partition));
    if (state === undefined) throw new RangeError(`${topic}-${partition} is not assigned`);
    restart(state, offset);
    this.#buffer = this.#buffer.filter((record) => record.topic !== topic || record.partition !== partition);
    this.#wake();
  }

  /**
   * The offset of the next record `poll` will return for a partition, or undefined while its start
   * offset is still being looked up.
   */
  position(topic: string, partition: number): bigint | undefined {
    const state = this.#partitions.get(partitionKey(topic, partition));
    if (state === undefined) throw new RangeError(`${topic}-${partition} is not assigned`);
    const buffered = this.#buffer.find((record) => record.topic === topic && record.partition === partition);
    return buffered?.offset ?? state.position;
  }

  /**
   * Returns the records fetched so far, or waits up to `maxWaitMs` for some; `[]` when none came.
   * Records of one partition come in offset order. Rejects with a {@link WeirError} when a
   * partition fails in a way retries cannot fix (it names the partition); the other partitions keep
   * going. One poll at a time.
   */
  async poll(options: PollOptions = {}): Promise<ConsumerRecord[]> {
    this.#assertOpen();
    if (this.#polling) throw new Error('poll is already running on this consumer');
    const maxWaitMs = nonNegative('maxWaitMs', options.maxWaitMs ?? this.#settings.maxWaitMs);
    const deadlineMs = Date.now() + maxWaitMs;
    this.#polling = true;
    try {
      for (let first = true; ; first = false) {
        if (this.#buffer.length > 0) {
          const records = this.#buffer;
          this.#buffer = [];
          // A partition that is behind its high watermark has records waiting at the broker: the
          // next Fetch (at most one per leader) goes now and overlaps with the caller handling
          // these. It cannot park, since records are there; a caught-up consumer fetches (and
          // long-polls) only from poll, as before.
          if (this.#anyBehind() && !this.#closed && !this.#client.closed) this.#startWork(maxWaitMs);
          return records;
        }
        const error = this.#errors.shift();
        if (error !== undefined) throw error;
        if (this.#closed || this.#client.closed) return [];
        const remainingMs = deadlineMs - Date.now();
        // A poll with no time left still starts fetching once, for the next poll to find.
        if (remainingMs <= 0 && !first) return [];
        const nextWorkMs = this.#startWork(Math.max(0, remainingMs));
        if (remainingMs <= 0) return [];
        await this.#nextEvent(Math.min(remainingMs, nextWorkMs));
      }
    } finally {
      this.#polling = false;
    }
  }

  /** Records one by one, polling as needed, until the consumer is closed. */
  async *[Symbol.asyncIterator](): AsyncGenerator<ConsumerRecord, void, undefined> {
    while (!this.#closed && !this.#client.closed) {
      const records = await this.poll();
      for (const record of records) {
        if (this.#closed) return;
        yield record;
      }
    }
  }

  /**
   * Stops the consumer: a waiting poll returns `[]`, iteration ends. Fetches still parked at a
   * broker are abandoned (their answers are dropped). The client stays open.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#buffer = [];
    this.#wake();
  }

  #anyBehind(): boolean {
    for (const state of this.#partitions.values()) if (state.behind) return true;
    return false;
  }

  #assertOpen(): void {
    if (this.#closed) throw new ClosedError('the consumer');
    if (this.#client.closed) throw new ClosedError('the client');
  }

  /** Waits until something happens (a fetch or lookup ends, assign, seek, close) or `ms` pass. */
  #nextEvent(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.#client.signal;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.#wake = () => {};
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal.addEventListener('abort', done, { once: true });
      this.#wake = done;
    });
  }

  /**
   * Starts offset lookups and fetches that can start now. Returns how long until a partition's
   * backoff ends (Infinity if none is waiting), so the poll can wake up for it.
   */
  #startWork(maxWaitMs: number): number {
    const nowMs = Date.now();
    let nextMs = Number.POSITIVE_INFINITY;
    const resets: PartitionState[] = [];
    const byLeader = new Map<number, PartitionState[]>();
    for (const state of this.#partitions.values()) {
      if (state.busy || state.halted !== undefined) continue;
      if (state.notBeforeMs > nowMs) {
        nextMs = Math.min(nextMs, state.notBeforeMs - nowMs);
        continue;
      }
      if (state.reset !== undefined) {
        resets.push(state);
        continue;
      }
      const leaderId = this.#client.cachedTopic(state.topic)?.partitions[state.partition]?.leaderId;
      // A stale topic (its leader refused a connection or said it no longer leads) is looked up
      // again before the next fetch, which would otherwise go to the same dead or demoted broker
      // until the cache ages out.
      if (leaderId === undefined || leaderId < 0 || this.#client.isTopicStale(state.topic)) {
        this.#refreshTopic(state.topic);
        continue;
      }
      if (this.#fetching.has(leaderId)) continue;
      const list = byLeader.get(leaderId) ?? [];
      list.push(state);
      byLeader.set(leaderId, list);
    }
    if (resets.length > 0) this.#resolveStarts(resets);
    for (const [leaderId, states] of byLeader) this.#fetch(leaderId, states, maxWaitMs);
    return nextMs;
  }

  #refreshTopic(topic: string): void {
    if (this.#refreshing.has(topic)) return;
    this.#refreshing.add(topic);
    this.#client
      .topic(topic)
      .then(noop, (error: unknown) => {
        const failure = asWeirError(error);
        if (failure instanceof ClosedError) return;
        // The lookup already used up the client's retries, so say so now rather than after more.
        this.#errors.push(failure);
        const retryAtMs = Date.now() + this.#client.retryPolicy.maxBackoffMs;
        for (const state of this.#partitions.values()) {
          if (state.topic === topic) state.notBeforeMs = Math.max(state.notBeforeMs, retryAtMs);
        }
      })
      .finally(() => {
        this.#refreshing.delete(topic);
        this.#wake();
      });
  }

  /** Looks up start offsets ('earliest', 'latest', by time) with ListOffsets. */
  #resolveStarts(states: readonly PartitionState[]): void {
    const generations = states.map((state) => state.generation);
    for (const state of states) state.busy = true;
    const queries = states.map((state) => ({
      topic: state.topic,
      partition: state.partition,
      spec: state.reset!,
    }));
    listOffsets(this.#client, queries, this.#settings.isolationLevel)
      .then(
        (results) => {
          states.forEach((state, index) => {
            if (!this.#isCurrent(state, generations[index]!)) return;
            const result = results.get(partitionKey(state.topic, state.partition));
            if (result === undefined || result instanceof WeirError) {
              this.#onFailure(state, result ?? new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR));
            } else if (result.offset < 0n) {
              // No record at or after the time: start at the end, where the next one will be.
              state.reset = 'latest';
            } else {
              state.position = result.offset;
              state.reset = undefined;
              markSucceeded(state);
            }
          });
        },
        (error: unknown) => {
          states.forEach((state, index) => {
            if (this.#isCurrent(state, generations[index]!)) this.#onFailure(state, asWeirError(error));
          });
        },
      )
      .finally(() => {
        for (const state of states) state.busy = false;
        this.#wake();
      });
  }

  #fetch(leaderId: number, states: readonly PartitionState[], maxWaitMs: number): void {
    const generations = states.map((state) => state.generation);
    const positions = states.map((state) => state.position!);
    const body = fetchRequest(states, positions, maxWaitMs, this.#settings);
    for (const state of states) state.busy = true;
    this.#fetching.add(leaderId);
    this.#client
      .send(leaderId, Fetch, body, { lane: 'fetch', timeoutMs: this.#client.requestTimeoutMs + maxWaitMs })
      .then(
        (response) => this.#onFetched(states, generations, positions, response),
        (error: unknown) => {
          states.forEach((state, index) => {
            if (this.#isCurrent(state, generations[index]!)) this.#onFailure(state, asWeirError(error));
          });
        },
      )
      .finally(() => {
        this.#fetching.delete(leaderId);
        for (const state of states) state.busy = false;
        this.#wake();
      });
  }

  #onFetched(
    states: readonly PartitionState[],
    generations: readonly number[],
    positions: readonly bigint[],
    response: ResponseOf<typeof Fetch>,
  ): void {
    const topError =
      response.errorCode === ErrorCode.NONE ? undefined : errorForCode(response.errorCode, 'Fetch.');
    states.forEach((state, index) => {
      if (!this.#isCurrent(state, generations[index]!)) return;
      if (topError !== undefined) {
        this.#onFailure(state, topError);
        return;
      }
      const answer = fetchedPartition(response, state);
      if (answer === undefined) return;
      const position = positions[index]!;
      const name = `${state.topic}-${state.partition}`;
      if (answer.errorCode === ErrorCode.OFFSET_OUT_OF_RANGE) {
        this.#onOutOfRange(state, position, answer.logStartOffset, answer.highWatermark);
        return;
      }
      if (answer.errorCode !== ErrorCode.NONE) {
        this.#onFailure(state, errorForCode(answer.errorCode, `Fetching ${name} at offset ${position}.`));
        return;
      }
      const committed = this.#settings.isolationLevel === 'read_committed';
      const decoded = decodeFetchedRecords(
        state.topic,
        state.partition,
        position,
        answer.records,
        committed
          ? { kind: 'read_committed', abortedTransactions: answer.abortedTransactions }
          : { kind: 'read_uncommitted' },
      );
      if (decoded.records.length > 0) {
        // Large answers hold tens of thousands of records: too many to spread into push().
        this.#buffer = this.#buffer.length === 0 ? decoded.records : this.#buffer.concat(decoded.records);
      }
      state.position = decoded.nextOffset;
      // A read_committed consumer's end is the last stable offset: records past it wait for their
      // transaction to end, and fetching again now would only return nothing.
      const end = committed && answer.lastStableOffset >= 0n ? answer.lastStableOffset : answer.highWatermark;
      state.behind = decoded.nextOffset < end;
      if (decoded.error !== undefined) this.#halt(state, decoded.error);
      else markSucceeded(state);
    });
  }

  #onOutOfRange(
    state: PartitionState,
    position: bigint,
    logStartOffset: bigint,
    highWatermark: bigint,
  ): void {
    const autoOffsetReset = this.#settings.autoOffsetReset;
    if (autoOffsetReset === 'none') {
      this.#halt(
        state,
        new WeirError(ErrorCode.OFFSET_OUT_OF_RANGE, {
          detail:
            `${state.topic}-${state.partition}: offset ${position} is outside the log ` +
            `(start ${logStartOffset}, end ${highWatermark}) and autoOffsetReset is "none"; seek to go on.`,
        }),
      );
      return;
    }
    state.position = undefined;
    state.reset = autoOffsetReset;
  }

  #isCurrent(state: PartitionState, generation: number): boolean {
    return (
      !this.#closed &&
      this.#partitions.get(partitionKey(state.topic, state.partition)) === state &&
      state.generation === generation
    );
  }

  /**
   * A retriable failure backs the partition off and tries again; one that persists past the retry
   * policy's total time is also reported by the next poll (and the partition keeps trying). Any
   * other failure stops the partition until `seek`.
   */
  #onFailure(state: PartitionState, error: WeirError | ClosedError): void {
    // The client closed under us: polls end with [] and iteration stops; nothing to report.
    if (error instanceof ClosedError) return;
    if (!error.retriable) {
      this.#halt(state, error);
      return;
    }
    const nowMs = Date.now();
    if (needsMetadataRefresh(error)) this.#client.invalidateMetadata(state.topic);
    if (backOff(state, this.#client.retryPolicy, nowMs)) this.#errors.push(error);
  }

  #halt(state: PartitionState, error: WeirError): void {
    state.halted = error;
    this.#errors.push(error);
  }
}

function noop(): void {}
