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
  /** The cluster's controller (-1: none), when the metadata source can tell. */
  readonly controllerId?: number;
}

/** At most this many partitions are named in a health reason; the rest are counted. */
const NAMED_PARTITIONS_MAX = 10;

export async function readPartitionHealth(
  admin: Pick<Admin, 'listTopics' | 'describeTopics'> & Partial<Pick<Admin, 'describeCluster'>>,
): Promise<PartitionHealth> {
  const cluster = admin.describeCluster === undefined ? undefined : await admin.describeCluster();
  const names = await admin.listTopics({ includeInternal: true });
  const topics = names.length === 0 ? [] : await admin.describeTopics(names);
  const offline: string[] = [];
  const underReplicated: { name: string; isrCount: number; replicaCount: number }[] = [];
  // Users' topics first: a health reason names at most ten, and a broker leads many internal
  // partitions (__consumer_offsets) that would otherwise hide the topics an operator looks for.
  const ordered = [
    ...topics.filter((topic) => !topic.isInternal),
    ...topics.filter((topic) => topic.isInternal),
  ];
  for (const topic of ordered) {
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
  return {
    offline,
    underReplicated,
    ...(cluster === undefined ? {} : { controllerId: cluster.controllerId }),
  };
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

/**
 * The partitions nobody can read or write: on a cluster, those of a broker whose session ended
 * (leader -1 until it returns, docs/architecture.md §6).
 */
export function offlineReason(health: PartitionHealth): HealthReason {
  const count = health.offline.length;
  if (count === 0) return { check: 'offline-partitions', ok: true, detail: 'every partition has a leader' };
  return {
    check: 'offline-partitions',
    ok: false,
    detail: `${count} offline (no leader): ${listed(health.offline)}`,
  };
}

/** Without a controller no topic can be created or deleted and no partition comes back online. */
export function controllerReason(health: PartitionHealth): HealthReason | undefined {
  if (health.controllerId === undefined) return undefined;
  return health.controllerId < 0
    ? { check: 'controller', ok: false, detail: 'the cluster reports no controller' }
    : { check: 'controller', ok: true, detail: `broker ${health.controllerId} is the controller` };
}

/** Why the partition counts are unknown, when the metadata read failed but the broker answered. */
export function metadataFailureReason(error: unknown): HealthReason {
  return {
    check: 'replication',
    ok: false,
    detail: `metadata could not be read: ${(error as Error).message}`,
  };
}
