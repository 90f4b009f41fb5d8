/**
 * What can be wrong with a partition's replication, worst first. offline: no leader; under-min-isr:
 * fewer in-sync replicas than min.insync.replicas (acks=all writes are refused); at-min-isr: exactly
 * that many while the replica set is larger (one more failure refuses them); under-replicated: the
 * ISR is smaller than the replica set; non-preferred-leader: led by a replica other than the first
 * (the preferred) one. This module imports nothing, so browser code can read the list through
 * `@weir/protocol/names`.
 */
export const PARTITION_HEALTH_STATES = [
  'offline',
  'under-min-isr',
  'at-min-isr',
  'under-replicated',
  'non-preferred-leader',
] as const;

/** One of {@link PARTITION_HEALTH_STATES}. */
export type PartitionHealthState = (typeof PARTITION_HEALTH_STATES)[number];
