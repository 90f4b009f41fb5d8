import type { Admin, BrokerOverview } from '@weir/protocol';
import type { BrokerList, BrokerRow } from '../api/schemas/brokers';
import type { BrokerReachability } from '../cluster/broker-reachability';

/** Where the broker list reads from. */
export interface BrokerListSources {
  readonly admin: Pick<Admin, 'describeCluster' | 'listTopics' | 'describeTopics'>;
  /** Asks one broker's internal listener for its overview, to tell live from unreachable. */
  readonly probe: (broker: { nodeId: number; host: string; port: number }) => Promise<BrokerOverview>;
  readonly reachability: BrokerReachability;
}

/** How long a broker may take to answer the probe before it is shown unreachable. */
export const PROBE_TIMEOUT_MS = 3_000;

export function withDeadline<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Brokers with their state, the controller and the partitions each leads and holds, from one
 * metadata read of every topic and one overview probe per registered broker (in parallel, each
 * with a deadline). Brokers seen before that are no longer registered are listed as gone.
 */
export async function listBrokers(sources: BrokerListSources, now: () => number): Promise<BrokerList> {
  const { admin, reachability } = sources;
  const cluster = await admin.describeCluster();
  const names = await admin.listTopics({ includeInternal: true });
  const topics = names.length === 0 ? [] : await admin.describeTopics(names);
  const led = new Map<number, Map<string, number[]>>();
  const replicas = new Map<number, number>();
  const offlinePartitions: string[] = [];
  for (const topic of [...topics].sort((left, right) => compareText(left.name, right.name))) {
    for (const partition of topic.partitions) {
      if (partition.leaderId < 0) offlinePartitions.push(`${topic.name}-${partition.partition}`);
      else {
        let byTopic = led.get(partition.leaderId);
        if (byTopic === undefined) {
          byTopic = new Map();
          led.set(partition.leaderId, byTopic);
        }
        byTopic.set(topic.name, [...(byTopic.get(topic.name) ?? []), partition.partition]);
      }
      for (const nodeId of partition.replicaNodes) replicas.set(nodeId, (replicas.get(nodeId) ?? 0) + 1);
    }
  }
  for (const broker of cluster.brokers) reachability.remember(broker);
  const probes = await Promise.all(
    cluster.brokers.map(async (broker) => {
      try {
        await withDeadline(sources.probe(broker), PROBE_TIMEOUT_MS, `broker ${broker.nodeId}`);
        reachability.markAnswered(broker.nodeId);
        return null;
      } catch (error) {
        reachability.markFailed(broker.nodeId, error);
        return error instanceof Error ? error.message : String(error);
      }
    }),
  );
  const registered = new Set(cluster.brokers.map((broker) => broker.nodeId));
  const row = (
    broker: { nodeId: number; host: string; port: number; rack: string | null },
    state: BrokerRow['state'],
    stateDetail: string | null,
  ): BrokerRow => {
    const ledTopics = [...(led.get(broker.nodeId) ?? new Map<string, number[]>())].map(
      ([topic, partitions]) => ({ topic, partitions: [...partitions].sort((left, right) => left - right) }),
    );
    return {
      nodeId: broker.nodeId,
      host: broker.host,
      port: broker.port,
      rack: broker.rack,
      state,
      stateDetail,
      isController: broker.nodeId === cluster.controllerId,
      leaderCount: ledTopics.reduce((sum, entry) => sum + entry.partitions.length, 0),
      ledTopics,
      replicaCount: replicas.get(broker.nodeId) ?? 0,
    };
  };
  const rows = [
    ...cluster.brokers.map((broker, index) => {
      const failure = probes[index] ?? null;
      return failure === null
        ? row(broker, 'live', null)
        : row(broker, 'unreachable', `registered, but the console cannot reach it: ${failure}`);
    }),
    ...reachability
      .known()
      .filter((broker) => !registered.has(broker.nodeId))
      .map((broker) =>
        row(broker, 'gone', 'no longer registered: its session ended, so its partitions are offline'),
      ),
  ].sort((left, right) => left.nodeId - right.nodeId);
  return {
    asOfMs: now(),
    clusterId: cluster.clusterId,
    controllerId: cluster.controllerId,
    offlinePartitions,
    brokers: rows,
  };
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
