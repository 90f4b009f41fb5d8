import type { BrokerOverview } from '@weir/protocol';
import { WeirError } from '@weir/protocol';
import { ConsoleConfigError } from '../../env';
import type { ClusterOverview, HealthReason } from '../api/schemas/cluster';

/** Why the broker could not be asked, as a health reason an operator can act on. */
function unreachableReason(error: unknown, address: string): HealthReason {
  if (error instanceof ConsoleConfigError) {
    return { check: 'configuration', ok: false, detail: error.message };
  }
  if (error instanceof WeirError) {
    return { check: 'broker-connection', ok: false, detail: `${address}: ${error.name}: ${error.message}` };
  }
  return { check: 'broker-connection', ok: false, detail: `${address}: ${(error as Error).message}` };
}

/**
 * The overview never fails because the broker is away: that is exactly what it must report. Only
 * the health part is filled in then.
 */
export async function clusterOverview(
  describeBroker: () => Promise<BrokerOverview>,
  address: string,
  now: () => number,
): Promise<ClusterOverview> {
  let overview: BrokerOverview;
  try {
    overview = await describeBroker();
  } catch (error) {
    return {
      asOfMs: now(),
      brokerAddress: address,
      health: { status: 'unreachable', reasons: [unreachableReason(error, address)] },
      broker: null,
      counts: null,
      logSizeBytes: null,
      throughput: null,
    };
  }
  const reasons = [...overview.checks]
    .sort((left, right) => Number(left.ok) - Number(right.ok))
    .map((check) => ({ check: check.name, ok: check.ok, detail: check.detail }));
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
    },
    logSizeBytes: overview.logSizeBytes.toString(),
    throughput: { ...overview.throughput },
  };
}
