/**
 * Java's `String.hashCode()`: s[0]·31^(n−1) + … + s[n−1] over UTF-16 code units, in 32-bit
 * two's-complement arithmetic. Kafka places a group on an `__consumer_offsets` partition with it,
 * so using the same function keeps a group on the partition Kafka would pick.
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
 * The `__consumer_offsets` partition of a group: `abs(hashCode(groupId)) % partitions`, where abs
 * is Kafka's `Utils.abs`, which maps Integer.MIN_VALUE (whose Math.abs overflows) to 0.
 */
export function offsetsPartitionFor(groupId: string, partitionCount: number): number {
  if (!Number.isInteger(partitionCount) || partitionCount < 1) {
    throw new RangeError(`partition count ${partitionCount} must be a positive integer`);
  }
  const hash = javaStringHashCode(groupId);
  const positive = hash === INT32_MIN ? 0 : Math.abs(hash);
  return positive % partitionCount;
}
