import {
  type Admin,
  askEveryLeader,
  DEFAULT_MIN_INSYNC_REPLICAS,
  judgePartition,
  type LeaderReplicationReport,
  type PartitionHealth,
  type ReportingBroker,
  readMinInsyncReplicas,
} from '@weir/protocol';

/** How long each broker has to say what it leads, as the console's ISR page allows. */
export const LEADER_REPORT_TIMEOUT_MS = 3_000;

/** One broker of the status: registered ones are live; a replica's broker that is not is gone. */
export interface StatusBroker {
  id: number;
  /** null for a broker that is not registered (only its id is known, from the replica sets). */
  host: string | null;
  port: number | null;
  rack: string | null;
  /** live: registered and answered; not-answering: registered but silent; gone: not registered. */
  state: 'live' | 'not-answering' | 'gone';
  controller: boolean;
  /** Partitions it leads, and those it holds a replica of without leading. */
  leads: number;
  follows: number;
}

/** What `weir cluster status` found: the cluster, its brokers and the partitions needing attention. */
export interface ClusterStatus {
  clusterId: string | null;
  controllerId: number;
  brokers: StatusBroker[];
  /** Partitions and topics judged, and the registered brokers that answered. */
  partitionCount: number;
  topicCount: number;
  answeredBrokers: number[];
  /** Registered brokers that did not say what they lead within the deadline, with why. */
  unansweredBrokers: { brokerId: number; detail: string }[];
  /** Partitions in any state needing attention, by topic then partition, with the reasons. */
  partitions: PartitionHealth[];
  /** No partition needs attention and every registered broker answered. */
  healthy: boolean;
}

export interface ClusterStatusSources {
  readonly admin: Pick<Admin, 'describeCluster' | 'listTopics' | 'describeTopics' | 'describeConfigs'>;
  /** Asks one broker for the partitions it leads (WeirDescribeReplication on its internal listener). */
  readonly ask: (broker: ReportingBroker) => Promise<readonly LeaderReplicationReport[]>;
  readonly timeoutMs: number;
}

/**
 * Reads the cluster the way the console's ISR page does (one metadata read, the topics'
 * min.insync.replicas, every registered broker asked for what it leads) and judges every
 * partition with the SDK's judgePartition, so the CLI and the page say the same words.
 */
export async function readClusterStatus(sources: ClusterStatusSources): Promise<ClusterStatus> {
  const { admin } = sources;
  const cluster = await admin.describeCluster();
  const registered = new Set(cluster.brokers.map((broker) => broker.nodeId));
  const names = await admin.listTopics({ includeInternal: true });
  const [topics, minIsr, leaders] = await Promise.all([
    names.length === 0 ? Promise.resolve([]) : admin.describeTopics(names),
    readMinInsyncReplicas(admin, names),
    askEveryLeader(cluster.brokers, sources.ask, { timeoutMs: sources.timeoutMs }),
  ]);
  const leads = new Map<number, number>();
  const follows = new Map<number, number>();
  const partitions: PartitionHealth[] = [];
  let partitionCount = 0;
  for (const topic of [...topics].sort((left, right) => compareText(left.name, right.name))) {
    for (const partition of topic.partitions) {
      partitionCount += 1;
      for (const brokerId of partition.replicaNodes) {
        const counts = brokerId === partition.leaderId ? leads : follows;
        counts.set(brokerId, (counts.get(brokerId) ?? 0) + 1);
      }
      const judged = judgePartition(
        topic.name,
        partition,
        minIsr.get(topic.name) ?? DEFAULT_MIN_INSYNC_REPLICAS,
        registered,
        leaders.reportOf(topic.name, partition.partition),
      );
      if (judged.states.length > 0) partitions.push(judged);
    }
  }
  const silent = new Set(leaders.unanswered.map((answer) => answer.brokerId));
  const brokers: StatusBroker[] = cluster.brokers.map((broker) => ({
    id: broker.nodeId,
    host: broker.host,
    port: broker.port,
    rack: broker.rack,
    state: silent.has(broker.nodeId) ? 'not-answering' : 'live',
    controller: broker.nodeId === cluster.controllerId,
    leads: leads.get(broker.nodeId) ?? 0,
    follows: follows.get(broker.nodeId) ?? 0,
  }));
  // A broker whose session ended is still in the replica sets; listing it says where it went.
  for (const brokerId of new Set([...leads.keys(), ...follows.keys()])) {
    if (registered.has(brokerId)) continue;
    brokers.push({
      id: brokerId,
      host: null,
      port: null,
      rack: null,
      state: 'gone',
      controller: false,
      leads: leads.get(brokerId) ?? 0,
      follows: follows.get(brokerId) ?? 0,
    });
  }
  brokers.sort((left, right) => left.id - right.id);
  return {
    clusterId: cluster.clusterId,
    controllerId: cluster.controllerId,
    brokers,
    partitionCount,
    topicCount: topics.length,
    answeredBrokers: leaders.answered,
    unansweredBrokers: leaders.unanswered,
    partitions,
    healthy: partitions.length === 0 && leaders.unanswered.length === 0,
  };
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
