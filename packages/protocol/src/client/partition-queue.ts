import type { ProducerBatch, ProducerIdentity } from './producer-batch';

/**
 * The producer's state for one partition: the batch being filled, closed batches waiting to go,
 * batches in flight, and the sequence numbers of an idempotent producer.
 *
 * Batches leave in order and at most `maxInFlight` at a time. When one fails and will be retried,
 * the queue stops sending (`recovering`) until everything in flight has answered, then puts the
 * failed batches back at the front in their original order and starts again. Kafka rejects a
 * batch whose predecessor is missing (OUT_OF_ORDER_SEQUENCE_NUMBER), so resending anything out of
 * order would only fail again, and without idempotence it would reorder records.
 *
 * Sequences belong to one producer identity. Resending a batch with its original identity and
 * sequence lets the broker answer a duplicate with the original offset, so a retry after a lost
 * answer never stores a record twice. When a batch leaves a gap instead (it failed for good, or
 * the broker forgot the producer), the later batches cannot be sent under that identity any more:
 * the queue retires it and numbers them again from 0 under a fresh producer id.
 */
export class PartitionQueue {
  readonly topic: string;
  readonly partition: number;
  /** The batch records are being added to. */
  open: ProducerBatch | undefined;
  /** Closed batches in send order; after a recovery the retried ones come first. */
  readonly ready: ProducerBatch[] = [];
  /** Sent and unanswered, in send order. */
  readonly inFlight: ProducerBatch[] = [];
  /** Failed retriably while others were in flight; resent when the queue has recovered. */
  readonly retries: ProducerBatch[] = [];
  /** The identity this partition's sequences belong to; undefined until the first send. */
  identity: ProducerIdentity | undefined;
  /** Producer ids this partition may no longer use because their sequences have a gap. */
  readonly retiredProducerIds = new Set<bigint>();
  /** The sequence of the next new batch under `identity`. */
  nextSequence = 0;
  /** Sending is paused until in-flight batches have answered; see the class comment. */
  recovering = false;
  /** A gap was left: the identity is retired when the recovery ends. */
  needsNewIdentity = false;
  /** No batch is sent before this time (backoff after a failure, waiting for a leader). */
  notBeforeMs = 0;
  /** Encoded size of the last batch closed here: new batches start with a buffer this large. */
  lastBatchBytes = 0;

  constructor(topic: string, partition: number) {
    this.topic = topic;
    this.partition = partition;
  }

  /** Whether the queue holds any batch that has not been answered for good. */
  get idle(): boolean {
    return (
      this.open === undefined &&
      this.ready.length === 0 &&
      this.inFlight.length === 0 &&
      this.retries.length === 0
    );
  }

  /** Moves the open batch to the end of `ready`; returns it. */
  closeOpen(): ProducerBatch | undefined {
    const batch = this.open;
    if (batch === undefined) return undefined;
    this.open = undefined;
    this.ready.push(batch);
    return batch;
  }

  /** Moves the first ready batch to `inFlight`. */
  markSent(batch: ProducerBatch): void {
    if (this.ready[0] !== batch)
      throw new Error(`${this.topic}-${this.partition}: sent a batch out of order`);
    this.ready.shift();
    this.inFlight.push(batch);
    batch.attempts++;
  }

  /** Removes an answered batch from `inFlight`. */
  markAnswered(batch: ProducerBatch): void {
    const index = this.inFlight.indexOf(batch);
    if (index < 0)
      throw new Error(`${this.topic}-${this.partition}: answer for a batch that is not in flight`);
    this.inFlight.splice(index, 1);
  }

  /**
   * Whether a batch closed now would have to wait: others are ready before it, the partition has
   * its most batches in flight, it is recovering or backing off.
   */
  isBusy(maxInFlight: number, nowMs: number): boolean {
    return (
      this.ready.length > 0 ||
      this.inFlight.length >= maxInFlight ||
      this.recovering ||
      this.notBeforeMs > nowMs
    );
  }

  /** Whether the recovery can end: paused, and nothing in flight. */
  get canFinishRecovery(): boolean {
    return this.recovering && this.inFlight.length === 0;
  }

  /**
   * Ends a recovery: the retried batches go back to the front of `ready` in their original order.
   * If a gap was left, the identity is retired and every waiting batch is encoded again later under
   * a new one. A batch that may already be stored under the old identity could then be stored
   * twice, so those are removed and returned for the caller to fail instead.
   */
  finishRecovery(): ProducerBatch[] {
    if (!this.canFinishRecovery) throw new Error(`${this.topic}-${this.partition}: recovery cannot end yet`);
    const retries = this.retries.splice(0).sort((left, right) => left.serial - right.serial);
    this.ready.unshift(...retries);
    this.recovering = false;
    if (!this.needsNewIdentity) return [];
    const abandoned = this.ready.filter((batch) => batch.encoded && batch.maybeAppended);
    const kept = this.ready.filter((batch) => !(batch.encoded && batch.maybeAppended));
    for (const batch of kept) batch.resetEncoding();
    this.ready.splice(0, this.ready.length, ...kept);
    if (this.identity !== undefined) this.retiredProducerIds.add(this.identity.producerId);
    this.identity = undefined;
    this.nextSequence = 0;
    this.needsNewIdentity = false;
    return abandoned;
  }
}
