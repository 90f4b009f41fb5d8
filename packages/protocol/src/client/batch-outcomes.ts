import { ErrorCode } from '../errors/error-codes';
import { WeirError } from '../errors/weir-error';
import type { ByteBudget } from './byte-budget';
import type { Client } from './client';
import { needsMetadataRefresh } from './cluster-metadata';
import type { PartitionQueue } from './partition-queue';
import type { PartitionQueues } from './partition-queues';
import type { ProducerBatch } from './producer-batch';
import type { ProducerTransactionGate } from './transaction/transaction-gate';

/** What {@link BatchOutcomes} works with: the producer's state and its ways to act. */
export interface BatchOutcomeContext {
  readonly client: Client;
  readonly budget: ByteBudget;
  readonly queues: PartitionQueues;
  readonly idempotent: boolean;
  /** Set for a transactional producer, which hears of every batch that failed for good. */
  readonly gate: ProducerTransactionGate | undefined;
  /** Runs the producer's drain soon. */
  readonly wake: () => void;
  /** Looks the topic's leaders up again. */
  readonly refreshTopic: (topic: string) => void;
}

/**
 * What becomes of a producer's batches once they are closed: stored, retried in order after the
 * partition's recovery (see {@link PartitionQueue}), or failed for good. Every batch that settles
 * gives its bytes back to the buffer, so waiting sends can go on.
 */
export class BatchOutcomes {
  readonly #context: BatchOutcomeContext;

  constructor(context: BatchOutcomeContext) {
    this.#context = context;
  }

  stored(batch: ProducerBatch, baseOffset: bigint, logAppendTimeMs: bigint): void {
    const queue = this.#context.queues.get(batch.topic, batch.partition);
    queue.markAnswered(batch);
    batch.complete(baseOffset, logAppendTimeMs);
    this.#context.budget.release(batch.bufferedBytes);
    this.#maybeFinishRecovery(queue);
  }

  /**
   * A send of `batch` failed. `outcomeUnknown` says the broker may have stored it anyway (no answer
   * came back); an error answer means it did not.
   */
  failed(batch: ProducerBatch, error: unknown, outcomeUnknown: boolean): void {
    const { client, gate } = this.#context;
    const queue = this.#context.queues.get(batch.topic, batch.partition);
    queue.markAnswered(batch);
    batch.lastError = error;
    if (outcomeUnknown) batch.maybeAppended = true;
    const code = error instanceof WeirError ? error.code : undefined;
    let retriable = error instanceof WeirError && error.retriable && !client.closed;
    if (
      gate === undefined &&
      this.#context.idempotent &&
      (code === ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER || code === ErrorCode.UNKNOWN_PRODUCER_ID)
    ) {
      // While an earlier batch is being retried, later ones are refused only because of it and go
      // again behind it unchanged. Otherwise the broker's idea of the sequence differs from ours
      // (it lost or expired the producer's state): nothing from here on was stored, so number it
      // again under a new producer id.
      retriable = !client.closed;
      if (!queue.recovering) queue.needsNewIdentity = true;
    }
    if (needsMetadataRefresh(error)) this.#context.refreshTopic(batch.topic);
    const waitMs = client.retryPolicy.backoffMs(batch.attempts);
    if (retriable && client.retryPolicy.allows(batch.attempts, batch.createdAtMs, waitMs)) {
      queue.retries.push(batch);
      queue.recovering = true;
      queue.notBeforeMs = Math.max(queue.notBeforeMs, Date.now() + waitMs);
    } else {
      this.#failBatch(queue, batch, error);
    }
    this.#maybeFinishRecovery(queue);
  }

  /** Fails batches that waited longer than the retry policy's total time without being sent. */
  expireUnsent(queue: PartitionQueue, nowMs: number): void {
    const maxTotalMs = this.#context.client.retryPolicy.maxTotalMs;
    while (queue.ready.length > 0 && !queue.recovering) {
      const batch = queue.ready[0]!;
      if (nowMs - batch.createdAtMs <= maxTotalMs) return;
      queue.ready.shift();
      const error =
        batch.lastError ??
        new WeirError(ErrorCode.REQUEST_TIMED_OUT, {
          detail: `a batch for ${queue.topic}-${queue.partition} could not be sent within ${maxTotalMs} ms.`,
        });
      this.#failBatch(queue, batch, error);
      this.#maybeFinishRecovery(queue);
    }
  }

  /** Fails every batch that has not been sent (no producer id could be obtained). */
  failUnsent(error: unknown): void {
    for (const queue of this.#context.queues.values()) {
      queue.closeOpen();
      const unsent = queue.ready.filter((batch) => !batch.encoded);
      for (const batch of unsent) {
        queue.ready.splice(queue.ready.indexOf(batch), 1);
        batch.fail(error);
        this.#context.budget.release(batch.bufferedBytes);
      }
    }
  }

  /** The client closed under the producer: nothing can be sent any more. */
  failEverything(error: unknown): void {
    this.#context.budget.rejectWaiters(error);
    for (const queue of this.#context.queues.values()) {
      queue.closeOpen();
      for (const batch of [...queue.ready.splice(0), ...queue.retries.splice(0)]) {
        batch.fail(error);
        this.#context.budget.release(batch.bufferedBytes);
      }
    }
  }

  /** Fails a batch for good. When it had a sequence number, the sequence now has a gap. */
  #failBatch(queue: PartitionQueue, batch: ProducerBatch, error: unknown): void {
    this.#context.gate?.onBatchFailed(error);
    batch.fail(error);
    this.#context.budget.release(batch.bufferedBytes);
    if (batch.identity !== undefined) {
      queue.needsNewIdentity = true;
      queue.recovering = true;
    }
  }

  #maybeFinishRecovery(queue: PartitionQueue): void {
    if (!queue.canFinishRecovery) return;
    for (const batch of queue.finishRecovery()) {
      batch.fail(batch.lastError);
      this.#context.budget.release(batch.bufferedBytes);
    }
    this.#context.wake();
  }
}
