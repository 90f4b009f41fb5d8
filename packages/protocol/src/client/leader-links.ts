import type { Client } from './client';
import type { Connection } from './connection';
import type { PartitionQueue } from './partition-queue';
import type { PartitionQueues } from './partition-queues';

/**
 * The producer's way to its partitions' leaders. Without a known leader it refreshes the topic's
 * metadata, without a ready connection it opens one; each runs at most once at a time, and the
 * drain is woken when it ends. Failures are noted on the affected queues' first batches, so a batch
 * that expires fails with the reason it could not be sent.
 */
export class LeaderLinks {
  readonly #client: Client;
  readonly #queues: PartitionQueues;
  readonly #wake: () => void;
  readonly #refreshingTopics = new Set<string>();
  readonly #connectingNodes = new Set<number>();

  constructor(client: Client, queues: PartitionQueues, wake: () => void) {
    this.#client = client;
    this.#queues = queues;
    this.#wake = wake;
  }

  /** The ready connection to the queue's leader; otherwise starts what is missing and returns undefined. */
  connectionFor(queue: PartitionQueue, nowMs: number): Connection | undefined {
    const leaderId = this.#client.cachedTopic(queue.topic)?.partitions[queue.partition]?.leaderId;
    if (leaderId === undefined || leaderId < 0) {
      queue.notBeforeMs = nowMs + this.#client.retryPolicy.initialBackoffMs;
      this.refreshTopic(queue.topic);
      return undefined;
    }
    const connection = this.#client.readyConnection(leaderId);
    if (connection === undefined) this.#connect(leaderId);
    return connection;
  }

  refreshTopic(topic: string): void {
    if (this.#refreshingTopics.has(topic)) return;
    this.#refreshingTopics.add(topic);
    this.#client
      .topic(topic, { refresh: true })
      .then(noop, (error: unknown) => {
        for (const queue of this.#queues.values()) {
          if (queue.topic === topic && queue.ready[0] !== undefined) queue.ready[0].lastError = error;
        }
      })
      .finally(() => {
        this.#refreshingTopics.delete(topic);
        this.#wake();
      });
  }

  #connect(nodeId: number): void {
    if (this.#connectingNodes.has(nodeId)) return;
    this.#connectingNodes.add(nodeId);
    this.#client
      .connectionTo(nodeId)
      .then(noop, (error: unknown) => {
        const retryAtMs = Date.now() + this.#client.retryPolicy.initialBackoffMs;
        for (const queue of this.#queues.values()) {
          const leaderId = this.#client.cachedTopic(queue.topic)?.partitions[queue.partition]?.leaderId;
          if (leaderId !== nodeId) continue;
          queue.notBeforeMs = Math.max(queue.notBeforeMs, retryAtMs);
          if (queue.ready[0] !== undefined) queue.ready[0].lastError = error;
        }
        this.#client.invalidateMetadata();
      })
      .finally(() => {
        this.#connectingNodes.delete(nodeId);
        this.#wake();
      });
  }
}

function noop(): void {}
