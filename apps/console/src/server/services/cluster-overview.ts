import { type BrokerOverview, ErrorCode } from '@weir/protocol';
import { asKafkaError, isConsoleConfigError } from '../api/error-shapes';
import type { ClusterOverview, HealthReason } from '../api/schemas/cluster';
import {
  controllerReason,
  metadataFailureReason,
  offlineReason,
  type PartitionHealth,
  replicationReason,
} from './partition-health';
import { type PeerOverview, peerReplicationReasons } from './replication-reasons';

/** Where the overview reads from: the internal listener's overview and the cluster metadata. */
export interface OverviewSources {
  describeBroker(): Promise<BrokerOverview>;
  readPartitionHealth(): Promise<PartitionHealth>;
  /** Registered brokers the console could not reach lately, described for a reason. */
  unreachableBrokers?(): readonly string[];
  /**
   * The overviews of the registered brokers other than `selfNodeId` (the one `describeBroker`
   * asked), for their replication checks: each broker reports only the partitions it leads.
   */
  peerOverviews?(selfNodeId: number): Promise<readonly PeerOverview[]>;
}

/** Why the broker could not be asked, as a health reason an operator can act on. */
function unreachableReason(error: unknown, address: string): HealthReason {
  if (isConsoleConfigError(error)) {
    return { check: 'configuration', ok: false, detail: error.message };
  }
  const kafka = asKafkaError(error);
  if (kafka !== null) {
    return { check: 'broker-connection', ok: false, detail: `${address}: ${kafka.name}: ${kafka.message}` };
  }
  return { check: 'broker-connection', ok: false, detail: `${address}: ${(error as Error).message}` };
}

function restrictedReason(): HealthReason {
  return {
    check: 'authorization',
    ok: false,
    detail:
      'The broker answered, but your ACLs do not allow DESCRIBE on the cluster, which its health needs.',
  };
}

function partitionReasons(health: PartitionHealth): HealthReason[] {
  const controller = controllerReason(health);
  return [
    replicationReason(health),
    offlineReason(health),
    ...(controller === undefined ? [] : [controller]),
  ];
}

function brokerReasons(unreachable: readonly string[]): HealthReason[] {
  if (unreachable.length === 0) return [];
  return [
    {
      check: 'brokers',
      ok: false,
      detail: `${unreachable.length} registered but unreachable from the console: ${unreachable.join(', ')}`,
    },
  ];
}

/**
 * The overview never fails because the broker is away: that is exactly what it must report. Only
 * the health part is filled in then.
 */
export async function clusterOverview(
  sources: OverviewSources,
  address: string,
  now: () => number,
): Promise<ClusterOverview> {
  let overview: BrokerOverview;
  // Started together: both are reads from memory on the broker, and neither needs the other. The
  // extra `then` turns a synchronous throw (no token configured) into a rejection handled here.
  const partitionHealth = Promise.resolve()
    .then(() => sources.readPartitionHealth())
    .then(
      (health) => ({ ok: true as const, health }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  try {
    overview = await sources.describeBroker();
  } catch (error) {
    // A logged-in user without DESCRIBE on the cluster reached the broker fine: saying
    // "unreachable" would send them looking for a network problem that is not there.
    const restricted = asKafkaError(error)?.originalCode === ErrorCode.CLUSTER_AUTHORIZATION_FAILED;
    return {
      asOfMs: now(),
      brokerAddress: address,
      health: restricted
        ? { status: 'restricted', reasons: [restrictedReason()] }
        : { status: 'unreachable', reasons: [unreachableReason(error, address)] },
      broker: null,
      counts: null,
      logSizeBytes: null,
      throughput: null,
    };
  }
  const partitions = await partitionHealth;
  const peers = await (sources.peerOverviews?.(overview.nodeId) ?? Promise.resolve([]));
  const reasons = [
    ...overview.checks.map((check) => ({ check: check.name, ok: check.ok, detail: check.detail })),
    ...(partitions.ok ? partitionReasons(partitions.health) : [metadataFailureReason(partitions.error)]),
    ...peerReplicationReasons(peers),
    ...brokerReasons(sources.unreachableBrokers?.() ?? []),
  ].sort((left, right) => Number(left.ok) - Number(right.ok));
  return {
    asOfMs: now(),
    brokerAddress: address,
    health: { status: reasons.every((reason) => reason.ok) ? 'healthy' : 'degraded', reasons },
    broker: {
      nodeId: overview.nodeId,
      clusterId: overview.clusterId,
      version: overview.version,
      startedAtMs: overview.startedAtMs,
      listeners: overview.listeners.map((listener) => ({ ...listener })),
      connectionCount: overview.connectionCount,
    },
    counts: {
      topics: overview.topicCount,
      internalTopics: overview.internalTopicCount,
      partitions: overview.partitionCount,
      groups: overview.groupCount,
      underReplicatedPartitions: partitions.ok ? partitions.health.underReplicated.length : null,
      offlinePartitions: partitions.ok ? partitions.health.offline.length : null,
    },
    logSizeBytes: overview.logSizeBytes.toString(),
    throughput: { ...overview.throughput },
  };
}
