import type { BrokerHealthCheck, BrokerListener, BrokerOverview } from '@weir/protocol';
import type { GroupCoordinator } from '../group/group-coordinator';
import type { LogManager } from '../log/log-manager';
import type { TrafficRates } from '../stats/traffic-rates';
import type { TopicManager } from '../topics/topic-manager';

/** What the overview reads from the broker that owns the subsystems. */
export interface BrokerOverviewSources {
  nodeId: number;
  clusterId(): string;
  version: string;
  /** When `start` began; 0 before. */
  startedAtMs(): number;
  /** Bound listeners (ports are known only after start). */
  listeners(): BrokerListener[];
  /** The same checks `/ready` reports. */
  readiness(): BrokerHealthCheck[];
  connectionCount(): number;
  topics: TopicManager;
  logs: LogManager;
  coordinator: GroupCoordinator;
  traffic: TrafficRates;
}

/**
 * The broker as a whole for the console's overview page: identity, readiness, counts and the
 * last minute's throughput, in one call and from memory only.
 */
export class BrokerOverviewCommands {
  constructor(private readonly sources: BrokerOverviewSources) {}

  describeBroker(): BrokerOverview {
    const { sources } = this;
    let topicCount = 0;
    let internalTopicCount = 0;
    let partitionCount = 0;
    for (const topic of sources.topics.listTopics()) {
      // Topics are counted as the topic list shows them by default, without internal ones;
      // partitions are every partition this broker holds, since each costs files and memory.
      if (topic.internal) internalTopicCount += 1;
      else topicCount += 1;
      partitionCount += topic.partitionCount;
    }
    let logSizeBytes = 0;
    for (const log of sources.logs.logs()) logSizeBytes += log.sizeBytes;
    return {
      nodeId: sources.nodeId,
      clusterId: sources.clusterId(),
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
