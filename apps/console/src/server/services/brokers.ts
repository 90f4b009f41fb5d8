import type { Admin, BrokerOverview, LogDirDescription } from '@weir/protocol';
import type { BrokerConfigs, BrokerList, BrokerRow } from '../api/schemas/brokers';
import type { BrokerReachability } from '../cluster/broker-reachability';

/** Where the broker list reads from. */
export interface BrokerListSources {
  readonly admin: Pick<Admin, 'describeCluster' | 'listTopics' | 'describeTopics' | 'describeLogDirs'>;
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
 * metadata read of every topic, one overview probe per registered broker (its listeners, version
 * and start) and one DescribeLogDirs per answering broker (in parallel, each with a deadline).
 * Brokers seen before that are no longer registered are listed as gone.
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
    cluster.brokers.map(async (broker): Promise<{ overview: BrokerOverview } | { failure: string }> => {
      try {
        const overview = await withDeadline(
          sources.probe(broker),
          PROBE_TIMEOUT_MS,
          `broker ${broker.nodeId}`,
        );
        reachability.markAnswered(broker.nodeId);
        return { overview };
      } catch (error) {
        reachability.markFailed(broker.nodeId, error);
        return { failure: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  const logDirs = await Promise.all(
    cluster.brokers.map(
      async (broker, index): Promise<{ dirs: LogDirDescription[] } | { failure: string }> => {
        if ('failure' in probes[index]!) return { failure: 'the broker did not answer' };
        try {
          return {
            dirs: await withDeadline(
              admin.describeLogDirs(broker.nodeId),
              PROBE_TIMEOUT_MS,
              `broker ${broker.nodeId}`,
            ),
          };
        } catch (error) {
          return { failure: error instanceof Error ? error.message : String(error) };
        }
      },
    ),
  );
  const totalLed = [...led.values()].reduce(
    (sum, byTopic) => sum + [...byTopic.values()].reduce((count, partitions) => count + partitions.length, 0),
    0,
  );
  const evenShare = cluster.brokers.length === 0 ? 0 : totalLed / cluster.brokers.length;
  const registered = new Set(cluster.brokers.map((broker) => broker.nodeId));
  const row = (
    broker: { nodeId: number; host: string; port: number; rack: string | null },
    state: BrokerRow['state'],
    stateDetail: string | null,
    overview: BrokerOverview | undefined,
    dirs: { dirs: LogDirDescription[] } | { failure: string },
  ): BrokerRow => {
    const ledTopics = [...(led.get(broker.nodeId) ?? new Map<string, number[]>())].map(
      ([topic, partitions]) => ({ topic, partitions: [...partitions].sort((left, right) => left - right) }),
    );
    const leaderCount = ledTopics.reduce((sum, entry) => sum + entry.partitions.length, 0);
    const replicaCount = replicas.get(broker.nodeId) ?? 0;
    const listeners = [...(overview?.listeners ?? [])]
      .sort((left, right) => (left.name === 'client' ? -1 : right.name === 'client' ? 1 : 0))
      .map((listener) => ({ name: listener.name, host: listener.host, port: listener.port }));
    const client = listeners.find((listener) => listener.name === 'client');
    return {
      nodeId: broker.nodeId,
      host: broker.host,
      port: broker.port,
      clientAddress: client === undefined ? null : `${client.host}:${client.port}`,
      listeners,
      version: overview?.version ?? null,
      startedAtMs: overview?.startedAtMs ?? null,
      rack: broker.rack,
      state,
      stateDetail,
      isController: broker.nodeId === cluster.controllerId,
      leaderCount,
      ledTopics,
      replicaCount,
      followerCount: replicaCount - leaderCount,
      leaderSkew: {
        evenShare: Math.round(evenShare * 10) / 10,
        percent: evenShare === 0 ? 0 : Math.round(((leaderCount - evenShare) / evenShare) * 100),
      },
      logDirs:
        'failure' in dirs
          ? null
          : dirs.dirs.map((dir) => ({
              path: dir.path,
              sizeBytes: dir.replicas.reduce((sum, replica) => sum + replica.sizeBytes, 0),
              partitionCount: dir.replicas.length,
              totalBytes: dir.totalBytes,
              usableBytes: dir.usableBytes,
            })),
      logDirsError: 'failure' in dirs ? dirs.failure : null,
    };
  };
  const rows = [
    ...cluster.brokers.map((broker, index) => {
      const probe = probes[index]!;
      return 'failure' in probe
        ? row(
            broker,
            'unreachable',
            `registered, but the console cannot reach it: ${probe.failure}`,
            undefined,
            logDirs[index]!,
          )
        : row(broker, 'live', null, probe.overview, logDirs[index]!);
    }),
    ...reachability
      .known()
      .filter((broker) => !registered.has(broker.nodeId))
      .map((broker) =>
        row(
          broker,
          'gone',
          'no longer registered: its session ended, so its partitions are offline',
          undefined,
          {
            failure: 'the broker is gone',
          },
        ),
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

/**
 * The configs of one broker that are not at their default (DescribeConfigs on the broker resource,
 * sent to that broker): what its file, environment or flags set. Sensitive ones show as set with a
 * null value.
 */
export async function describeBrokerConfigs(
  admin: Pick<Admin, 'describeConfigs'>,
  nodeId: number,
  now: () => number,
): Promise<BrokerConfigs> {
  const [description] = await admin.describeConfigs([{ type: 'broker', name: String(nodeId) }], {});
  const configs = [...(description?.configs ?? [])]
    .filter((entry) => !entry.isDefault)
    .sort((left, right) => compareText(left.name, right.name))
    .map((entry) => ({
      name: entry.name,
      value: entry.value,
      source: entry.source,
      isSensitive: entry.isSensitive,
    }));
  return { asOfMs: now(), nodeId, configs };
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
