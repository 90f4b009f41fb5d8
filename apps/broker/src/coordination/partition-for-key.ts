/**
 * Java's `String.hashCode()`: s[0]·31^(n−1) + … + s[n−1] over UTF-16 code units, in 32-bit
 * two's-complement arithmetic. Kafka places a group on a `__consumer_offsets` partition and a
 * transactional id on a `__transaction_state` partition with it, so using the same function keeps
 * every key on the partition Kafka would pick.
 */
export function javaStringHashCode(value: string): number {
  let hash = 0;
  for (let index = 0; index < value.length; index++) {
    hash = (Math.imul(hash, 31) + value.charCodeAt(index)) | 0;
  }
  return hash;
}

const INT32_MIN = -2_147_483_648;

/**
 * The internal-topic partition of a coordinator key (a group id, a transactional id):
 * `abs(hashCode(key)) % partitions`, where abs is Kafka's `Utils.abs`, which maps
 * Integer.MIN_VALUE (whose Math.abs overflows) to 0. The group coordinator, the transaction
 * coordinator and FindCoordinator all place keys with it, so they agree on the owner.
 */
export function partitionForKey(key: string, partitionCount: number): number {
  if (!Number.isInteger(partitionCount) || partitionCount < 1) {
    throw new RangeError(`partition count ${partitionCount} must be a positive integer`);
  }
  const hash = javaStringHashCode(key);
  const positive = hash === INT32_MIN ? 0 : Math.abs(hash);
  return positive % partitionCount;
}
