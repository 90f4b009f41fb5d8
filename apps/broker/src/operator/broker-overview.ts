import type { BrokerHealthCheck, BrokerListener, BrokerOverview } from '@weir/protocol';
import type { GroupCoordinator } from '../group/group-coordinator';
import type { ClusterView } from '../metadata/cluster-view';
import type { ReplicaManager } from '../replica/replica-manager';
import type { TrafficRates } from '../stats/traffic-rates';

/** What the overview reads from the broker that owns the subsystems. */
export interface BrokerOverviewSources {
  view: ClusterView;
  version: string;
  /** When `start` began; 0 before. */
  startedAtMs(): number;
  /** Bound listeners (ports are known only after start). */
  listeners(): BrokerListener[];
  /** The same checks `/ready` reports. */
  readiness(): BrokerHealthCheck[];
  connectionCount(): number;
  replicas: Pick<ReplicaManager, 'localReplicas'>;
  coordinator: GroupCoordinator;
  traffic: TrafficRates;
}

/**
 * The broker as a whole for the console's overview page: identity, readiness, counts and the
 * last minute's throughput, in one call and from memory only.
 */
export class BrokerOverviewView {
  constructor(private readonly sources: BrokerOverviewSources) {}

  describeBroker(): BrokerOverview {
    const { sources } = this;
    let topicCount = 0;
    let internalTopicCount = 0;
    let partitionCount = 0;
    for (const topic of sources.view.topics()) {
      // Topics and their partitions are counted as the topic list shows them by default, without
      // internal ones: an overview whose partition count included __consumer_offsets' 50 would
      // disagree with the sum over the Topics page.
      if (topic.internal) {
        internalTopicCount += 1;
      } else {
        topicCount += 1;
        partitionCount += topic.partitionCount;
      }
    }
    let logSizeBytes = 0;
    for (const { state } of sources.replicas.localReplicas()) logSizeBytes += state.log.sizeBytes;
    return {
      nodeId: sources.view.localBrokerId,
      clusterId: sources.view.clusterId,
      version: sources.version,
      startedAtMs: sources.startedAtMs(),
      listeners: sources.listeners(),
      checks: sources.readiness(),
      topicCount,
      internalTopicCount,
      partitionCount,
      groupCount: sources.coordinator.listGroups().groups.length,
      connectionCount: sources.connectionCount(),
      logSizeBytes: BigInt(logSizeBytes),
      throughput: sources.traffic.snapshot(),
    };
  }
}
