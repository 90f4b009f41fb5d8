import { ErrorCode } from '../errors/error-codes';
import { errorForCode, WeirError } from '../errors/weir-error';
import { Fetch } from '../messages/apis/fetch';
import type { RequestOf, ResponseOf } from '../schema/api';
import type { Client } from './client';
import { ClosedError } from './closed-error';
import { needsMetadataRefresh } from './cluster-metadata';
import { decodeFetchedRecords } from './fetched-records';
import { partitionKey } from './leader-requests';
import { listOffsets, type OffsetSpec } from './list-offsets';
import type { ConsumerRecord } from './message';

/** Where to start reading a partition: an offset, the log start or end, or the first record at or after a time. */
export type StartOffset = bigint | number | OffsetSpec;

/** One partition to read, and where to start. */
export interface PartitionAssignment {
  readonly topic: string;
  readonly partition: number;
  readonly offset: StartOffset;
}

/** Settings of a {@link Consumer}. */
export interface ConsumerOptions {
  /**
   * How long `poll` waits for records when none are buffered, and so how long a Fetch waits at the
   * broker. Long waits cost no latency: the broker answers as soon as records are appended. Default 5 s.
   */
  readonly maxWaitMs?: number;
  /** The broker answers once this many bytes are available (or the wait ends). Default 1. */
  readonly minBytes?: number;
  /** The most bytes one Fetch answer may carry (at least one batch comes back regardless). Default 50 MiB. */
  readonly maxBytes?: number;
  /** The most bytes per partition in one Fetch answer (with the same exception). Default 1 MiB. */
  readonly partitionMaxBytes?: number;
  /**
   * What to do when the position is outside the log (OFFSET_OUT_OF_RANGE, e.g. after retention
   * deleted it): move to the `'earliest'` or `'latest'` offset, or fail the poll (`'none'`) with an
   * error naming the partition until `seek` sets a new position. Default `'latest'`, as in Java.
   */
  readonly autoOffsetReset?: 'earliest' | 'latest' | 'none';
  /**
   * `'read_committed'` (the default, as in the Java client and librdkafka) reads transactional
   * data only once committed: up to the last stable offset, without the records of aborted
   * transactions. `'read_uncommitted'` reads everything up to the high watermark.
   */
  readonly isolationLevel?: 'read_committed' | 'read_uncommitted';
}

/** Settings of one {@link Consumer.poll}. */
export interface PollOptions {
  /** Overrides the consumer's `maxWaitMs` for this poll. */
  readonly maxWaitMs?: number;
}

const MAX_INT32 = 0x7fffffff;

interface PartitionState {
  readonly topic: string;
  readonly partition: number;
  /** The next offset to fetch; undefined until a start offset is resolved. */
  position: bigint | undefined;
  /** A position to look up with ListOffsets before fetching. */
  reset: OffsetSpec | undefined;
  /** Bumped by `seek`: answers to requests made before it are dropped. */
  generation: number;
  /** Part of a Fetch or ListOffsets in flight. */
  busy: boolean;
  /** Backoff after a failure. */
  notBeforeMs: number;
  /** Consecutive failures, for the backoff. */
  failures: number;
  /** When the current run of failures began. */
  failingSinceMs: number | undefined;
  /** A failure that stops the partition until the next `seek`. */
  halted: WeirError | undefined;
  /** The last Fetch left records between the position and the high watermark. */
  behind: boolean;
}

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
  readonly #maxWaitMs: number;
  readonly #minBytes: number;
  readonly #maxBytes: number;
  readonly #partitionMaxBytes: number;
  readonly #autoOffsetReset: 'earliest' | 'latest' | 'none';
  readonly #isolationLevel: 'read_committed' | 'read_uncommitted';
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
    this.#maxWaitMs = nonNegative('maxWaitMs', options.maxWaitMs ?? 5000);
    this.#minBytes = nonNegative('minBytes', options.minBytes ?? 1);
    this.#maxBytes = nonNegative('maxBytes', options.maxBytes ?? 50 * 1024 * 1024);
    this.#partitionMaxBytes = nonNegative('partitionMaxBytes', options.partitionMaxBytes ?? 1024 * 1024);
    this.#autoOffsetReset = options.autoOffsetReset ?? 'latest';
    this.#isolationLevel = options.isolationLevel ?? 'read_committed';
    if (this.#isolationLevel !== 'read_committed' && this.#isolationLevel !== 'read_uncommitted') {
      throw new RangeError(`isolationLevel must be 'read_committed' or 'read_uncommitted'`);
    }
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
      const state: PartitionState = {
        topic: assignment.topic,
        partition: assignment.partition,
        position: undefined,
        reset: undefined,
        generation: 0,
        busy: false,
        notBeforeMs: 0,
        failures: 0,
        failingSinceMs: undefined,
        halted: undefined,
        behind: false,
      };
      setStart(state, assignment.offset);
      next.set(key, state);
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
    state.generation++;
    state.behind = false;
    state.halted = undefined;
    state.failures = 0;
    state.failingSinceMs = undefined;
    state.notBeforeMs = 0;
    setStart(state, offset);
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
    const maxWaitMs = nonNegative('maxWaitMs', options.maxWaitMs ?? this.#maxWaitMs);
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
      if (leaderId === undefined || leaderId < 0) {
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
    listOffsets(this.#client, queries, this.#isolationLevel)
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
              this.#onSuccess(state);
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
    const body: RequestOf<typeof Fetch> = {
      replicaId: -1,
      maxWaitMs: Math.min(MAX_INT32, Math.round(maxWaitMs)),
      minBytes: this.#minBytes,
      maxBytes: this.#maxBytes,
      isolationLevel: this.#isolationLevel === 'read_committed' ? 1 : 0,
      sessionId: 0,
      sessionEpoch: -1,
      topics: [],
      forgottenTopicsData: [],
      rackId: '',
    };
    states.forEach((state, index) => {
      state.busy = true;
      let topic = body.topics.find((candidate) => candidate.topic === state.topic);
      if (topic === undefined) {
        topic = { topic: state.topic, partitions: [] };
        body.topics.push(topic);
      }
      topic.partitions.push({
        partition: state.partition,
        currentLeaderEpoch: -1,
        fetchOffset: positions[index]!,
        logStartOffset: -1n,
        partitionMaxBytes: this.#partitionMaxBytes,
      });
    });
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
      const answer = response.responses
        .find((topic) => topic.topic === state.topic)
        ?.partitions.find((partition) => partition.partitionIndex === state.partition);
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
      const committed = this.#isolationLevel === 'read_committed';
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
      else this.#onSuccess(state);
    });
  }

  #onOutOfRange(
    state: PartitionState,
    position: bigint,
    logStartOffset: bigint,
    highWatermark: bigint,
  ): void {
    if (this.#autoOffsetReset === 'none') {
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
    state.reset = this.#autoOffsetReset;
  }

  #isCurrent(state: PartitionState, generation: number): boolean {
    return (
      !this.#closed &&
      this.#partitions.get(partitionKey(state.topic, state.partition)) === state &&
      state.generation === generation
    );
  }

  #onSuccess(state: PartitionState): void {
    state.failures = 0;
    state.failingSinceMs = undefined;
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
    const policy = this.#client.retryPolicy;
    if (needsMetadataRefresh(error)) this.#client.invalidateMetadata(state.topic);
    state.failures++;
    state.failingSinceMs ??= nowMs;
    state.notBeforeMs = nowMs + policy.backoffMs(state.failures);
    if (nowMs - state.failingSinceMs > policy.maxTotalMs) {
      state.failingSinceMs = nowMs;
      this.#errors.push(error);
    }
  }

  #halt(state: PartitionState, error: WeirError): void {
    state.halted = error;
    this.#errors.push(error);
  }
}

function setStart(state: PartitionState, offset: StartOffset): void {
  if (typeof offset === 'bigint' || typeof offset === 'number') {
    const position = BigInt(offset);
    if (position < 0n) throw new RangeError(`a start offset must be ≥ 0, got ${offset}`);
    state.position = position;
    state.reset = undefined;
    return;
  }
  if (offset !== 'earliest' && offset !== 'latest' && !Number.isSafeInteger(offset?.timestampMs)) {
    throw new RangeError(`a start offset is a number, 'earliest', 'latest' or { timestampMs }`);
  }
  state.position = undefined;
  state.reset = offset;
}

function asWeirError(error: unknown): WeirError | ClosedError {
  if (error instanceof WeirError || error instanceof ClosedError) return error;
  return new WeirError(ErrorCode.UNKNOWN_SERVER_ERROR, {
    detail: error instanceof Error ? error.message : String(error),
    cause: error,
  });
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be ≥ 0, got ${value}`);
  return value;
}

function noop(): void {}
