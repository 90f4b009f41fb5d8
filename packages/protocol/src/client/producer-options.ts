import type { CompressionType } from '../records/batch-attributes';

/** Settings of a `Producer`. */
export interface ProducerOptions {
  /**
   * How many replicas must have a batch before the broker answers: -1 (all in-sync replicas, and
   * on Weir a durable write), 1 (the leader), or 0 (no answer at all; offsets come back as -1).
   * Default -1.
   */
  readonly acks?: -1 | 0 | 1;
  /**
   * Number each partition's batches so that retries are never stored twice (Kafka's idempotent
   * producer). Needs acks=-1, as in the Java client. Default: on when acks is -1.
   */
  readonly idempotent?: boolean;
  /** Default `'none'`. zstd needs a broker that serves Produce v7. */
  readonly compression?: CompressionType;
  /**
   * How long a batch stays open for more records before it is sent. Default 0: a batch is sent at
   * the end of the event-loop turn in which it was started, so concurrent `send` calls from that
   * turn share it and a lone `send` pays no delay. A partition that cannot send right away (its
   * most batches in flight, or batches waiting ahead) keeps its open batch filling until it can,
   * so under load batches grow by themselves. Raise it (5–50 ms) to trade latency for bigger
   * batches when the producer is not busy.
   */
  readonly lingerMs?: number;
  /**
   * A batch is closed once its records reach this size (estimated, an upper bound of the encoded
   * size, before compression). Default 1 MiB, which still fits Kafka's default max.message.bytes
   * (1 MiB + 12); lower it for topics with a smaller max.message.bytes.
   */
  readonly batchBytes?: number;
  /**
   * The most record bytes waiting to be stored. `send` waits for room beyond it, so a producer
   * that outruns the broker slows down instead of growing without bound. Default 32 MiB.
   */
  readonly bufferBytes?: number;
  /** The largest Produce request; batches for more partitions wait for the next one. Default 1 MiB. */
  readonly maxRequestBytes?: number;
  /** Unanswered batches per partition, 1–5 (Kafka keeps the last 5 for deduplication). Default 5. */
  readonly maxInFlightPerPartition?: number;
  /** Test-only interception points; leave unset in real use. */
  readonly testHooks?: ProducerTestHooks;
}

/** A produce answer as a {@link ProducerTestHooks.interceptResponse} hook sees it. */
export interface InterceptedProduceResponse {
  readonly topic: string;
  readonly partition: number;
  /** -1 without idempotence. */
  readonly baseSequence: number;
  /** 1 for the first send of this batch. */
  readonly attempt: number;
}

/** Hooks for tests of failure handling. */
export interface ProducerTestHooks {
  /**
   * Called for each partition's answer before it is used. `'lose'` handles it as if the connection
   * had dropped it: the batch is sent again, byte for byte, as after any lost answer.
   */
  readonly interceptResponse?: (response: InterceptedProduceResponse) => 'deliver' | 'lose';
}
