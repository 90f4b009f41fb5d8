import {
  type Admin,
  askEveryLeader,
  DEFAULT_MIN_INSYNC_REPLICAS,
  judgePartition,
  type LeaderReplicationReport,
  type ReportingBroker,
  readMinInsyncReplicas,
} from '@weir/protocol';
import type {
  PartitionReplicationRow,
  ReplicationHealth,
  ReplicationHealthInput,
} from '../api/schemas/replication';
import type { BrokerReachability } from '../cluster/broker-reachability';
import { PROBE_TIMEOUT_MS } from './brokers';

/** Where the ISR health page reads from. */
export interface ReplicationHealthSources {
  readonly admin: Pick<Admin, 'describeCluster' | 'listTopics' | 'describeTopics' | 'describeConfigs'>;
  /**
   * Asks one broker for the replication of the partitions it leads; answering at all is what makes
   * it count as answered, so a broker that cannot report lag yet answers with no reports.
   */
  readonly ask: (broker: ReportingBroker) => Promise<readonly LeaderReplicationReport[]>;
  readonly reachability: Pick<BrokerReachability, 'markAnswered' | 'markFailed' | 'remember'>;
}

/**
 * The partitions whose replication needs attention, each with its reasons in words, from one
 * metadata read (leaders, replicas, ISRs, registered brokers), the topics' min.insync.replicas and
 * every registered broker's report on what it leads (asked in parallel, each within the probe
 * deadline; a broker that does not answer is named, and its partitions are judged from the
 * metadata alone). The judgement itself is the SDK's (judgePartition), shared with
 * `weir cluster status`.
 */
export async function readReplicationHealth(
  sources: ReplicationHealthSources,
  input: ReplicationHealthInput,
  now: () => number,
): Promise<ReplicationHealth> {
  const { admin, reachability } = sources;
  const cluster = await admin.describeCluster();
  for (const broker of cluster.brokers) reachability.remember(broker);
  const registered = new Set(cluster.brokers.map((broker) => broker.nodeId));
  const names = input.topic === undefined ? await admin.listTopics({ includeInternal: true }) : [input.topic];
  const [topics, minIsr, leaders] = await Promise.all([
    names.length === 0 ? Promise.resolve([]) : admin.describeTopics(names),
    readMinInsyncReplicas(admin, names),
    askEveryLeader(cluster.brokers, sources.ask, {
      timeoutMs: PROBE_TIMEOUT_MS,
      onAnswered: (broker) => reachability.markAnswered(broker.nodeId),
      onFailed: (broker, error) => reachability.markFailed(broker.nodeId, error),
    }),
  ]);
  const counts = { offline: 0, underMinIsr: 0, atMinIsr: 0, underReplicated: 0, nonPreferredLeader: 0 };
  const rows: PartitionReplicationRow[] = [];
  let partitionCount = 0;
  let topicCount = 0;
  for (const topic of [...topics].sort((left, right) => compareText(left.name, right.name))) {
    let covered = false;
    for (const partition of topic.partitions) {
      if (input.brokerId !== undefined && !partition.replicaNodes.includes(input.brokerId)) continue;
      covered = true;
      partitionCount += 1;
      const row = judgePartition(
        topic.name,
        partition,
        minIsr.get(topic.name) ?? DEFAULT_MIN_INSYNC_REPLICAS,
        registered,
        leaders.reportOf(topic.name, partition.partition),
      );
      if (row.states.includes('offline')) counts.offline += 1;
      if (row.states.includes('under-min-isr')) counts.underMinIsr += 1;
      if (row.states.includes('at-min-isr')) counts.atMinIsr += 1;
      if (row.states.includes('under-replicated')) counts.underReplicated += 1;
      if (row.states.includes('non-preferred-leader')) counts.nonPreferredLeader += 1;
      if (row.states.length === 0) continue;
      if (input.state !== undefined && !row.states.includes(input.state)) continue;
      rows.push(row);
    }
    if (covered) topicCount += 1;
  }
  return {
    asOfMs: now(),
    partitionCount,
    topicCount,
    registeredBrokers: [...registered].sort((left, right) => left - right),
    answeredBrokers: leaders.answered,
    unansweredBrokers: leaders.unanswered,
    counts,
    partitions: rows,
  };
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
