import type { Admin } from '@weir/protocol';
import type { HealthReason } from '../api/schemas/cluster';

/*
 * Replication health from one metadata read of every topic, as Kafka clients see it. A partition
 * without a leader is offline (nobody can read or write it); one with a leader whose ISR is smaller
 * than its replica set is under-replicated (writes with acks=all wait on fewer copies). An offline
 * partition counts only as offline, as in Kafka's own metrics, where the leader reports URPs.
 */

export interface PartitionHealth {
  /** `topic-partition` names. */
  readonly offline: readonly string[];
  readonly underReplicated: readonly { name: string; isrCount: number; replicaCount: number }[];
}

/** At most this many partitions are named in a health reason; the rest are counted. */
const NAMED_PARTITIONS_MAX = 10;

export async function readPartitionHealth(
  admin: Pick<Admin, 'listTopics' | 'describeTopics'>,
): Promise<PartitionHealth> {
  const names = await admin.listTopics({ includeInternal: true });
  const topics = names.length === 0 ? [] : await admin.describeTopics(names);
  const offline: string[] = [];
  const underReplicated: { name: string; isrCount: number; replicaCount: number }[] = [];
  for (const topic of topics) {
    for (const partition of topic.partitions) {
      const name = `${topic.name}-${partition.partition}`;
      if (partition.leaderId < 0) offline.push(name);
      else if (partition.isrNodes.length < partition.replicaNodes.length) {
        underReplicated.push({
          name,
          isrCount: partition.isrNodes.length,
          replicaCount: partition.replicaNodes.length,
        });
      }
    }
  }
  return { offline, underReplicated };
}

function listed(items: readonly string[]): string {
  const named = items.slice(0, NAMED_PARTITIONS_MAX).join(', ');
  const more = items.length - NAMED_PARTITIONS_MAX;
  return more > 0 ? `${named} and ${more} more` : named;
}

/**
 * The reason beside the broker's own checks. Offline partitions already have one (the broker's
 * `partitions` check); this one names the under-replicated partitions and their ISR sizes.
 */
export function replicationReason(health: PartitionHealth): HealthReason {
  const count = health.underReplicated.length;
  if (count === 0)
    return { check: 'replication', ok: true, detail: 'every partition with a leader has its full ISR' };
  const items = health.underReplicated.map(
    (partition) => `${partition.name} (ISR ${partition.isrCount} of ${partition.replicaCount})`,
  );
  return { check: 'replication', ok: false, detail: `${count} under-replicated: ${listed(items)}` };
}

/** Why the partition counts are unknown, when the metadata read failed but the broker answered. */
export function metadataFailureReason(error: unknown): HealthReason {
  return {
    check: 'replication',
    ok: false,
    detail: `metadata could not be read: ${(error as Error).message}`,
  };
}
