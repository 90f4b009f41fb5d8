import type { OffsetSpec } from './list-offsets';

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

/** A consumer's options, checked and with their defaults filled in. */
export interface ConsumerSettings {
  readonly maxWaitMs: number;
  readonly minBytes: number;
  readonly maxBytes: number;
  readonly partitionMaxBytes: number;
  readonly autoOffsetReset: 'earliest' | 'latest' | 'none';
  readonly isolationLevel: 'read_committed' | 'read_uncommitted';
}

/** Checks a consumer's options and fills in the defaults; throws a RangeError for the first bad one. */
export function consumerSettings(options: ConsumerOptions): ConsumerSettings {
  const maxWaitMs = nonNegative('maxWaitMs', options.maxWaitMs ?? 5000);
  const minBytes = nonNegative('minBytes', options.minBytes ?? 1);
  const maxBytes = nonNegative('maxBytes', options.maxBytes ?? 50 * 1024 * 1024);
  const partitionMaxBytes = nonNegative('partitionMaxBytes', options.partitionMaxBytes ?? 1024 * 1024);
  const autoOffsetReset = options.autoOffsetReset ?? 'latest';
  const isolationLevel = options.isolationLevel ?? 'read_committed';
  if (isolationLevel !== 'read_committed' && isolationLevel !== 'read_uncommitted') {
    throw new RangeError(`isolationLevel must be 'read_committed' or 'read_uncommitted'`);
  }
  return { maxWaitMs, minBytes, maxBytes, partitionMaxBytes, autoOffsetReset, isolationLevel };
}

export function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be ≥ 0, got ${value}`);
  return value;
}
