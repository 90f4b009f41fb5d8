import type { Admin, BrokerMetadata, InternalAdminApi, TopicDescription } from '@weir/protocol';
import type { UnansweredBroker } from '../api/schemas/reassignments';
import type { BrokerReachability } from '../cluster/broker-reachability';
import { PROBE_TIMEOUT_MS, withDeadline } from './brokers';

/*
 * What the reassignment views read from the cluster: where each partition's replicas are (the
 * metadata), how large each replica's log is on each broker (DescribeLogDirs, which every broker
 * answers only about itself) and which moves run (ListPartitionReassignments).
 */

/** Where the reassignment views read from. */
export interface ReassignmentSources {
  readonly admin: Pick<
    Admin,
    'describeCluster' | 'listTopics' | 'describeTopics' | 'describeLogDirs' | 'incrementalAlterConfigs'
  >;
  readonly internal: Pick<InternalAdminApi, 'alterPartitionReassignments' | 'listPartitionReassignments'>;
  readonly reachability: Pick<BrokerReachability, 'remember' | 'markAnswered' | 'markFailed'>;
}

/** The log size of one replica, by topic, partition and broker; undefined when not known. */
export type SizeOf = (topic: string, partition: number, brokerId: number) => number | undefined;

export interface LogSizes {
  readonly sizeOf: SizeOf;
  readonly unanswered: UnansweredBroker[];
}

/**
 * The registered brokers and the topics named (every topic when `names` is undefined), leaving
 * out names that do not exist, so a plan can say so per row instead of failing as a whole.
 */
export async function readPlacement(
  sources: ReassignmentSources,
  names: readonly string[] | undefined,
): Promise<{ brokers: readonly BrokerMetadata[]; topics: readonly TopicDescription[] }> {
  const { admin } = sources;
  const cluster = await admin.describeCluster();
  for (const broker of cluster.brokers) sources.reachability.remember(broker);
  const existing = await admin.listTopics({ includeInternal: true });
  const wanted = names === undefined ? existing : existing.filter((name) => names.includes(name));
  const topics = wanted.length === 0 ? [] : await admin.describeTopics(wanted);
  return { brokers: cluster.brokers, topics };
}

/**
 * The log sizes of the given partitions on every registered broker, asked in parallel, each
 * within the probe deadline: a broker that does not answer (stopped, paused) is named and its
 * replicas' sizes are unknown, rather than holding up the whole answer.
 */
export async function readLogSizes(
  sources: ReassignmentSources,
  brokers: readonly BrokerMetadata[],
  partitions: readonly { topic: string; partition: number }[],
): Promise<LogSizes> {
  const sizes = new Map<string, number>();
  const unanswered: UnansweredBroker[] = [];
  if (partitions.length === 0) return { sizeOf: () => undefined, unanswered };
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of partitions)
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
  const filter = [...byTopic].map(([topic, numbers]) => ({ topic, partitions: numbers }));
  await Promise.all(
    brokers.map(async (broker) => {
      try {
        const dirs = await withDeadline(
          sources.admin.describeLogDirs(broker.nodeId, { topics: filter }),
          PROBE_TIMEOUT_MS,
          `broker ${broker.nodeId}`,
        );
        sources.reachability.markAnswered(broker.nodeId);
        for (const dir of dirs) {
          for (const replica of dir.replicas) {
            if (replica.isFuture) continue;
            sizes.set(sizeKey(replica.topic, replica.partition, broker.nodeId), replica.sizeBytes);
          }
        }
      } catch (error) {
        sources.reachability.markFailed(broker.nodeId, error);
        unanswered.push({
          brokerId: broker.nodeId,
          detail: error instanceof Error ? error.message : String(error),
        });
      }
    }),
  );
  unanswered.sort((left, right) => left.brokerId - right.brokerId);
  return {
    sizeOf: (topic, partition, brokerId) => sizes.get(sizeKey(topic, partition, brokerId)),
    unanswered,
  };
}

function sizeKey(topic: string, partition: number, brokerId: number): string {
  return `${topic}\u0000${partition}\u0000${brokerId}`;
}

/** `topic\0partition`, the key the views join moves, placements and plans on. */
export function partitionKey(partition: { topic: string; partition: number }): string {
  return `${partition.topic}\u0000${partition.partition}`;
}
