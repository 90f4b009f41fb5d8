/**
 * Choosing a partition for a record: by key with murmur2, exactly as the Java client's
 * `BuiltInPartitioner` and kafkajs's `DefaultPartitioner` do, so records with the same key land on
 * the same partition whichever of these clients produced them; without a key, sticky: one
 * partition until a batch for it is sent, then another (KIP-480), so keyless records fill few large
 * batches instead of many small ones.
 */

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/**
 * Kafka's murmur2 hash (`Utils.murmur2`): a 32-bit signed result. Java computes it in int
 * arithmetic, which `Math.imul` and `| 0` reproduce exactly.
 */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let at = 0; at < whole; at += 4) {
    let k = data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | (data[at + 3]! << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  const rest = length & 3;
  if (rest === 3) h ^= data[whole + 2]! << 16;
  if (rest >= 2) h ^= data[whole + 1]! << 8;
  if (rest >= 1) h = Math.imul(h ^ data[whole]!, M);
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** The partition of a keyed record: `positive(murmur2(key)) % partitionCount`, as in the Java client. */
export function partitionForKey(key: Uint8Array, partitionCount: number): number {
  if (!Number.isInteger(partitionCount) || partitionCount < 1) {
    throw new RangeError(`partitionCount must be a positive integer, got ${partitionCount}`);
  }
  // "positive" is a mask, not Math.abs: it maps -2^31 to 0 instead of overflowing.
  return (murmur2(key) & 0x7fffffff) % partitionCount;
}

/**
 * The sticky choice for keyless records, per topic. `partition` keeps answering the same partition
 * until {@link onBatchClosed} reports that the batch for it was closed; the next choice is random
 * among the partitions that have a leader, and differs from the previous one when there is another.
 */
export class StickyPartitioner {
  readonly #random: () => number;
  /** The sticky partition per topic, while its batch is open. */
  readonly #current = new Map<string, number>();
  /** The partition whose batch closed last, per topic, so the next choice can avoid it. */
  readonly #previous = new Map<string, number>();

  constructor(random: () => number) {
    this.#random = random;
  }

  /** The partition for a keyless record of `topic`. `available` lists partitions with a leader. */
  partition(topic: string, partitionCount: number, available: readonly number[]): number {
    const current = this.#current.get(topic);
    if (current !== undefined && current < partitionCount) return current;
    const pool =
      available.length > 0 ? available : Array.from({ length: partitionCount }, (_, index) => index);
    const previous = this.#previous.get(topic);
    const candidates = pool.length > 1 ? pool.filter((partition) => partition !== previous) : pool;
    const chosen =
      candidates[Math.min(candidates.length - 1, Math.floor(this.#random() * candidates.length))]!;
    this.#current.set(topic, chosen);
    return chosen;
  }

  /** Told when a batch is closed; if it was the sticky partition's, the next keyless record moves on. */
  onBatchClosed(topic: string, partition: number): void {
    if (this.#current.get(topic) !== partition) return;
    this.#current.delete(topic);
    this.#previous.set(topic, partition);
  }
}
