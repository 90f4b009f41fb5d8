import { PartitionQueue } from './partition-queue';

/**
 * A producer's {@link PartitionQueue}s, created on first use. Iteration follows creation order, so
 * every drain visits the partitions in the same order.
 */
export class PartitionQueues {
  readonly #queues = new Map<string, PartitionQueue>();
  /** The same queues by topic and partition number, so a record finds its queue without a string key. */
  readonly #queuesByTopic = new Map<string, (PartitionQueue | undefined)[]>();

  values(): Iterable<PartitionQueue> {
    return this.#queues.values();
  }

  /** The queues of a topic, indexed by partition (holes where none exists yet). */
  ofTopic(topic: string): (PartitionQueue | undefined)[] {
    let queues = this.#queuesByTopic.get(topic);
    if (queues === undefined) {
      queues = [];
      this.#queuesByTopic.set(topic, queues);
    }
    return queues;
  }

  /** The partition's queue, created if there is none yet. */
  get(topic: string, partition: number): PartitionQueue {
    return this.ofTopic(topic)[partition] ?? this.create(topic, partition);
  }

  create(topic: string, partition: number): PartitionQueue {
    const queue = new PartitionQueue(topic, partition);
    this.#queues.set(`${topic}\u0000${partition}`, queue);
    this.ofTopic(topic)[partition] = queue;
    return queue;
  }
}
