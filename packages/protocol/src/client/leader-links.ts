import type { Client } from './client';
import type { Connection } from './connection';
import type { PartitionQueue } from './partition-queue';
import type { PartitionQueues } from './partition-queues';

/**
 * The least time between two metadata lookups of one topic started by a producer, so a leader that
 * refuses connections while the cluster has not yet elected its successor costs a lookup per
 * backoff rather than one per drain.
 */
export const MIN_TOPIC_REFRESH_INTERVAL_MS = 100;

/**
 * The producer's way to its partitions' leaders. Without a known leader it refreshes the topic's
 * metadata, without a ready connection it opens one; each runs at most once at a time, and the
 * drain is woken when it ends. Failures are noted on the affected queues' first batches, so a batch
 * that expires fails with the reason it could not be sent.
 *
 * A leader that cannot be reached (a refused or broken connection) is probably gone: its topics'
 * metadata is marked stale and looked up again, rate-limited, until an answer names a leader that
 * takes the connection. The batches waiting for it then go there, within their retry budget.
 */
export class LeaderLinks {
  readonly #client: Client;
  readonly #queues: PartitionQueues;
  readonly #wake: () => void;
  readonly #refreshingTopics = new Set<string>();
  readonly #lastRefreshAtMs = new Map<string, number>();
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
    // Stale metadata is still the best guess of the leader, so sending goes on while it is renewed.
    if (this.#client.isTopicStale(queue.topic)) this.refreshTopic(queue.topic);
    const connection = this.#client.readyConnection(leaderId);
    if (connection === undefined) this.#connect(leaderId);
    return connection;
  }

  /**
   * Marks the topic's metadata stale and looks it up again, unless a lookup is running or one
   * started less than {@link MIN_TOPIC_REFRESH_INTERVAL_MS} ago; then the stale mark makes the next
   * {@link connectionFor} ask again.
   */
  refreshTopic(topic: string): void {
    this.#client.invalidateMetadata(topic);
    if (this.#refreshingTopics.has(topic)) return;
    const nowMs = Date.now();
    if (
      nowMs - (this.#lastRefreshAtMs.get(topic) ?? Number.NEGATIVE_INFINITY) <
      MIN_TOPIC_REFRESH_INTERVAL_MS
    ) {
      return;
    }
    this.#lastRefreshAtMs.set(topic, nowMs);
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
        const topics = new Set<string>();
        for (const queue of this.#queues.values()) {
          const leaderId = this.#client.cachedTopic(queue.topic)?.partitions[queue.partition]?.leaderId;
          if (leaderId !== nodeId) continue;
          queue.notBeforeMs = Math.max(queue.notBeforeMs, retryAtMs);
          if (queue.ready[0] !== undefined) queue.ready[0].lastError = error;
          topics.add(queue.topic);
        }
        this.#client.invalidateMetadata();
        // The leader is probably gone: ask who leads now instead of knocking on its door until the
        // batches expire.
        for (const topic of topics) this.refreshTopic(topic);
      })
      .finally(() => {
        this.#connectingNodes.delete(nodeId);
        this.#wake();
      });
  }
}

function noop(): void {}
