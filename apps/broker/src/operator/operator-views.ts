import type { GroupCoordinator } from '../group/group-coordinator';
import type { ClusterView } from '../metadata/cluster-view';
import type { ReplicaManager } from '../replica/replica-manager';
import type { TrafficRates } from '../stats/traffic-rates';
import { type BrokerOverviewSources, BrokerOverviewView } from './broker-overview';
import { GroupLagsView } from './group-lags';
import { LogDirsView } from './log-dirs';
import { PartitionInternalsView } from './partition-internals';
import { RecordScan } from './record-scan';
import { TopicSummariesView } from './topic-summaries';

export interface OperatorViewsDeps {
  view: ClusterView;
  replicas: ReplicaManager;
  groups: GroupCoordinator;
  traffic: TrafficRates;
  clock: { nowMs(): number };
  /** The directory every partition log of this broker lives in (DescribeLogDirs). */
  logDirectory: string;
  /** What only the broker knows about itself: version, start time, listeners, readiness. */
  broker: Omit<BrokerOverviewSources, 'view' | 'replicas' | 'coordinator' | 'traffic'>;
}

/**
 * Weir's operator views in one place (the Weir-only APIs of the internal listener, the console,
 * the CLI's lag and the metrics read them): the broker overview, the topic list with sizes and
 * lag, a topic's partitions, group lag by the one lag rule (group-lag.ts), and record scans. They
 * only read: the replica layer for offsets and records, the cluster view for placement, the group
 * coordinator for committed offsets,
 * the file system for the log directory's free space.
 */
export class OperatorViews {
  readonly overview: BrokerOverviewView;
  readonly topicSummaries: TopicSummariesView;
  readonly partitionInternals: PartitionInternalsView;
  readonly groupLags: GroupLagsView;
  readonly recordScan: RecordScan;
  readonly logDirs: LogDirsView;

  constructor(deps: OperatorViewsDeps) {
    const { view, replicas, groups } = deps;
    this.overview = new BrokerOverviewView({
      ...deps.broker,
      view,
      replicas,
      coordinator: groups,
      traffic: deps.traffic,
    });
    this.topicSummaries = new TopicSummariesView(view, replicas, groups);
    this.partitionInternals = new PartitionInternalsView(view, replicas);
    this.groupLags = new GroupLagsView(groups, (topic, partition) => replicas.offsets(topic, partition));
    this.recordScan = new RecordScan(view, replicas, deps.clock);
    this.logDirs = new LogDirsView(deps.logDirectory, replicas);
  }
}
